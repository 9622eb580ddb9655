"""memtier_benchmark: the preferred load generator (used when installed or selected)."""

from pathlib import Path

from backend.domain.load_generators import load_generator_spec
from worker.drivers.loadgen import LoadGenerator, LoadSpec
from worker.parsers import ClientResult, client_result_from_memtier, parse_memtier_json
from worker.parsers.progress import MemtierProgressParser

PERCENTILES = "50,90,99,99.9"


class MemtierDriver(LoadGenerator):
    spec = load_generator_spec("memtier")
    progress_suffix = "err"

    def _common(self, spec: LoadSpec) -> list[str]:
        address, port = spec.targets[0]
        return [
            self.binary,
            "--server",
            address,
            "--port",
            str(port),
            "--protocol=memcache_text",
            f"--data-size={spec.value_size}",
            "--key-minimum=1",
            f"--key-maximum={spec.key_maximum}",
            "--expiry-range=259200-259201",
        ]

    def argv(self, spec: LoadSpec, workdir: str, name: str) -> list[str]:
        argv = self._common(spec) + [
            f"--clients={spec.clients_per_thread}",
            f"--threads={spec.threads}",
            f"--test-time={spec.run_time_s}",
            f"--ratio={spec.ratio}",
            f"--print-percentiles={PERCENTILES}",
            f"--json-out-file={workdir}/{name}.json",
        ]
        if spec.multiget_size > 1:
            argv.append(f"--multi-key-get={spec.multiget_size}")
        return argv

    def populate_argv(self, spec: LoadSpec) -> list[str]:
        """Write every key once, in order, so reads of the run do not miss."""
        return self._common(spec) + [
            "--clients=1",
            "--threads=1",
            "--ratio=1:0",
            "--key-pattern=S:S",
            f"--requests={spec.key_maximum}",
        ]

    def parse(self, local_dir: Path, name: str) -> ClientResult:
        text = (local_dir / f"{name}.json").read_text(errors="replace")
        return client_result_from_memtier(parse_memtier_json(text))

    def progress_parser(self) -> MemtierProgressParser:
        return MemtierProgressParser()
