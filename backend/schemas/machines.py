"""The machines per configuration, as served (backend/results/machines.py says how)."""

from pydantic import BaseModel, Field


class LinkPublic(BaseModel):
    host: str = Field(description="the testbed host")
    role: str = Field(description="its role")
    cap_mbit_s: float = Field(description="its egress cap, Mbit/s (10^6 bit/s)")
    cap_basis: str | None = Field(
        description="the figure the cap follows: published, measured or custom"
    )
    tx_bytes_per_s: float = Field(
        description="bytes/s it sent, every interface but loopback, mean over repetitions"
    )
    utilization: float = Field(description="sent / cap: the link's utilization")
    saturated: bool = Field(description="utilization past `saturated_share`")


class ConfigurationMachinesPublic(BaseModel):
    configuration_id: int
    index: int
    values: dict[str, object]
    host_cpus: float | None = Field(description="CPU cores of the run's hosts, summed")
    host_cpu_busy_pct: float | None = Field(
        description="hosts' CPU busy (user + system), % of a core, summed over hosts"
    )
    host_cpu_user_pct: float | None = Field(description="hosts' CPU user, % of a core")
    host_cpu_system_pct: float | None = Field(description="hosts' CPU system, % of a core")
    host_cpu_iowait_pct: float | None = Field(description="hosts' CPU iowait, % of a core")
    host_cpu_steal_pct: float | None = Field(
        description="hosts' CPU steal (taken by the hypervisor), % of a core"
    )
    host_utilization: float | None = Field(
        description="hosts' busy CPU / their cores: every process on them counts"
    )
    process_cpu_pct: float | None = Field(
        description="CPU of mcscope's processes (middlewares, servers, load generators, "
        "the monitor), % of a core"
    )
    process_utilization: float | None = Field(
        description="mcscope's processes' CPU / the hosts' cores"
    )
    process_cpu_pct_by_role: dict[str, float] = Field(
        description="CPU of each role's processes, % of a core"
    )
    net_bytes_per_s: float | None = Field(
        description="bytes/s received + sent, every interface summed"
    )
    links: list[LinkPublic] = Field(
        default_factory=list,
        description="each host with a link cap (a shaped or sized testbed): what it sent "
        "against its cap; empty: no host records a cap",
    )
    saturated: bool = Field(
        description="the hosts' CPU busy past `saturated_share` of cores, or a link past "
        "`saturated_share` of its cap"
    )
    summary: str = Field(description="the machines in words")


class MachinesPublic(BaseModel):
    window_start_s: int | None = Field(
        description="start of the re-cut window, s; null: each run's stable window"
    )
    window_end_s: int | None = Field(
        description="end of the re-cut window, s; null: each run's stable window"
    )
    saturated_share: float = Field(
        description="share of the cores (or of a link's cap) named saturated"
    )
    data: list[ConfigurationMachinesPublic]
