"""A file an imported run was made from, by content hash: the same output imported twice is
recognised and not stored again (worker/imports; migration 0029)."""

from sqlalchemy import BigInteger, ForeignKey, Index, String, text
from sqlalchemy.orm import Mapped, mapped_column

from backend.models.base import Base, TimestampMixin


class ImportedFile(TimestampMixin, Base):
    __tablename__ = "imported_files"
    __table_args__ = (
        # A run is the import of its client output: that file's content is stored once.
        Index(
            "uq_imported_files_client_sha256",
            "sha256",
            unique=True,
            postgresql_where=text("role = 'client'"),
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), index=True)
    # Path inside the upload (or folder) it came from.
    path: Mapped[str] = mapped_column(String(1024))
    # "client", "hdr", "companion" or "middleware" (a file of a middleware stats folder).
    role: Mapped[str] = mapped_column(String(20))
    sha256: Mapped[str] = mapped_column(String(64), index=True)
    size: Mapped[int] = mapped_column(BigInteger)
