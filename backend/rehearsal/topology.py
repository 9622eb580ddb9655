"""The hosts a rehearsal builds from an Azure plan: one namespace host per role VM of the plan
(the jump host is not an mcscope host, so it is not rehearsed), its link shaped at its VM
size's bandwidth on the basis the user chose (backend.domain.vm_sizes), and the limit on how
many hosts this machine takes."""

from dataclasses import asdict, dataclass
from typing import Any

from backend.core.config import settings
from backend.domain.vm_sizes import BASES, Basis, bandwidth


class TopologyError(ValueError):
    """A plan this machine cannot rehearse; `field` is the request field it is about."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class RehearsalHost:
    """One host to build: its name and role as planned, its VM size and the egress cap that
    stands for the size's network."""

    name: str
    role: str  # "server", "middleware" or "client"
    size: str
    mbit_s: float
    basis: Basis
    bandwidth_source: str

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


# Request field of each role's size, for errors.
ROLE_FIELDS = {"server": "servers", "middleware": "middlewares", "client": "clients"}


def rehearsal_hosts(planned: list[tuple[str, str, str]], basis: Basis) -> list[RehearsalHost]:
    """The hosts of a plan's role VMs, given as (name, role, size) in plan order; a size with
    no bandwidth on `basis` is refused (its link could not be shaped like the cloud's)."""
    hosts = []
    for name, role, size in planned:
        fig = bandwidth(size, basis)
        if fig is None:
            others = [b for b in BASES if b != basis and bandwidth(size, b) is not None]
            hint = f"; the {others[0]} basis has one" if others else ""
            raise TopologyError(
                f"{ROLE_FIELDS[role]}.size",
                f"no {basis} network bandwidth is known for {size}, so its link cannot be "
                f"shaped like the cloud's{hint}",
            )
        hosts.append(
            RehearsalHost(name, role, size, fig.value, basis, f"{fig.source} ({fig.date})")
        )
    return hosts


def check_limit(new_hosts: int, live_hosts: int) -> None:
    """Refuse a rehearsal that would put more namespace hosts on this machine than
    MCSCOPE_REHEARSAL_MAX_HOSTS, counting the live rehearsals' hosts."""
    limit = settings.REHEARSAL_MAX_HOSTS
    if new_hosts + live_hosts > limit:
        already = f" ({live_hosts} already in live rehearsals)" if live_hosts else ""
        raise TopologyError(
            "servers",
            f"{new_hosts} hosts to rehearse{already}: this machine takes at most {limit} "
            "namespace hosts (MCSCOPE_REHEARSAL_MAX_HOSTS; every host runs an sshd and its "
            "role's processes on this machine's shared cores)",
        )
