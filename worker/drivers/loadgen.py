"""What the pipeline needs from a load generator, whichever tool it is.

Each tool is a subclass bound to its entry of the registry (backend.domain.load_generators),
from which it takes its binary names and version probe; worker.drivers.registry resolves the
entries to these classes.
"""

from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from backend.domain.load_generators import LoadGeneratorSpec
from worker.drivers.host import RemoteProcess
from worker.drivers.tool import ToolDriver
from worker.parsers import ClientResult, ProgressParser

POPULATE_TIMEOUT_S = 600


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
    rate_limit: int = 0  # requests/s per connection; 0: closed loop

    @property
    def set_get(self) -> tuple[int, int]:
        sets, gets = self.ratio.split(":")
        return int(sets), int(gets)


class LoadGenerator(ToolDriver):
    """start() runs the tool for run_time_s; parse() reads its fetched outputs."""

    spec: ClassVar[LoadGeneratorSpec]
    progress_suffix: ClassVar[str] = "out"  # the stream carrying per-second progress

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        cls.tool = cls.spec.program
        cls.tool_name = cls.spec.name
        cls.candidates = cls.spec.candidates
        cls.version_args = cls.spec.version_args

    tool_name: ClassVar[str]

    def prepare(self, spec: LoadSpec, workdir: str, name: str) -> None:
        """Write any input file the tool needs (nothing by default)."""

    def argv(self, spec: LoadSpec, workdir: str, name: str) -> list[str]:
        raise NotImplementedError

    def start(self, spec: LoadSpec, workdir: str, name: str) -> RemoteProcess:
        self.prepare(spec, workdir, name)
        # Line-buffered stdout, so live progress is read as each report is printed and not
        # in 4 KB blocks (stdbuf is part of coreutils).
        return self.launch(["stdbuf", "-oL", *self.argv(spec, workdir, name)], workdir, name)

    def parse(self, local_dir: Path, name: str) -> ClientResult:
        raise NotImplementedError

    def progress_parser(self) -> ProgressParser:
        raise NotImplementedError

    def load_start_unix(
        self, local_dir: Path, name: str, result: ClientResult, launched_unix: float
    ) -> float:
        """Where the tool's per-second series begin (unix s), from its parsed output and
        fetched files: its launch unless the tool says better."""
        return launched_unix

    def populate_argv(self, spec: LoadSpec) -> list[str]:
        """Tools whose registry entry says `populates`: write every key of the key space once."""
        raise NotImplementedError(f"{self.tool} cannot populate servers")

    def populate(self, spec: LoadSpec, workdir: str, name: str) -> RemoteProcess:
        return self.launch(self.populate_argv(spec), workdir, name)
