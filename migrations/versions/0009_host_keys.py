"""SSH host keys pinned per host at registration.

Earlier versions pinned a remote host's key at the worker's first contact in a known_hosts
file (MCSCOPE_SSH_KNOWN_HOSTS); the keys found there move onto their hosts, so that testbeds
that ran before keep running with the key they were pinned to.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-23 16:30:00
"""

from collections.abc import Sequence

import paramiko
import sqlalchemy as sa
from alembic import op

from backend.core.config import settings

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("hosts", sa.Column("host_key", sa.String(length=4096), nullable=True))
    op.add_column("hosts", sa.Column("host_key_source", sa.String(length=16), nullable=True))
    op.add_column(
        "hosts", sa.Column("host_key_pinned_at", sa.DateTime(timezone=True), nullable=True)
    )
    path = settings.SSH_KNOWN_HOSTS
    if not path.is_file():
        return
    known = paramiko.HostKeys(str(path))
    conn = op.get_bind()
    hosts = conn.execute(sa.text("SELECT id, address, ssh_port FROM hosts")).all()
    for host_id, address, port in hosts:
        name = address if port == 22 else f"[{address}]:{port}"
        keys = known.lookup(name)
        if not keys:
            continue
        key = next(iter(keys.values()))
        conn.execute(
            sa.text(
                "UPDATE hosts SET host_key = :key, host_key_source = 'known_hosts', "
                "host_key_pinned_at = now() WHERE id = :id"
            ),
            {"key": f"{key.get_name()} {key.get_base64()}", "id": host_id},
        )


def downgrade() -> None:
    op.drop_column("hosts", "host_key_pinned_at")
    op.drop_column("hosts", "host_key_source")
    op.drop_column("hosts", "host_key")
