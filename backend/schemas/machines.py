"""The machines per configuration, as served (backend/results/machines.py says how)."""

from pydantic import BaseModel, Field


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
    saturated: bool = Field(description="the hosts' CPU busy past `saturated_share` of cores")
    summary: str = Field(description="the machines in words")


class MachinesPublic(BaseModel):
    window_start_s: int | None = Field(
        description="start of the re-cut window, s; null: each run's stable window"
    )
    window_end_s: int | None = Field(
        description="end of the re-cut window, s; null: each run's stable window"
    )
    saturated_share: float = Field(description="share of the cores named saturated")
    data: list[ConfigurationMachinesPublic]
