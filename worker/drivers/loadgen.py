"""What the pipeline needs from a load generator, whichever tool it is."""

from dataclasses import dataclass
from pathlib import Path

from worker.drivers.host import RemoteProcess
from worker.drivers.tool import ToolDriver
from worker.parsers import ClientResult
from worker.parsers.progress import MemaslapProgressParser, MemtierProgressParser


@dataclass(frozen=True)
class LoadSpec:
    """One load generator instance, every field typed and range-checked upstream."""

    targets: tuple[tuple[str, int], ...]  # memtier uses the first only
    threads: int
    clients_per_thread: int
    ratio: str  # canonical "S:G" from the parameter schema
    multiget_size: int
    value_size: int
    key_maximum: int
    run_time_s: int

    @property
    def set_get(self) -> tuple[int, int]:
        sets, gets = self.ratio.split(":")
        return int(sets), int(gets)


class LoadGenerator(ToolDriver):
    """start() runs the tool for run_time_s; collect() names the files to fetch."""

    tool_name = "memaslap"
    progress_suffix = "out"  # the stream carrying per-second progress

    def prepare(self, spec: LoadSpec, workdir: str, name: str) -> None:
        """Write any input file the tool needs (nothing by default)."""

    def argv(self, spec: LoadSpec, workdir: str, name: str) -> list[str]:
        raise NotImplementedError

    def start(self, spec: LoadSpec, workdir: str, name: str) -> RemoteProcess:
        self.prepare(spec, workdir, name)
        # Line-buffered stdout, so live progress is read as each report is printed and not
        # in 4 KB blocks (stdbuf is part of coreutils).
        return self.launch(["stdbuf", "-oL", *self.argv(spec, workdir, name)], workdir, name)

    def outputs(self, name: str) -> list[str]:
        """File names (in the workdir) holding this instance's results."""
        return [f"{name}.out", f"{name}.err"]

    def parse(self, local_dir: Path, name: str) -> ClientResult:
        raise NotImplementedError

    def progress_parser(self) -> MemaslapProgressParser | MemtierProgressParser:
        raise NotImplementedError
