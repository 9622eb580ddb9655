"""memaslap (Debian: memcaslap): the fallback load generator, runs here without memtier."""

import shlex
from pathlib import Path

from backend.domain.load_generators import load_generator_spec
from worker.drivers.host import ended_unix
from worker.drivers.loadgen import LoadGenerator, LoadSpec
from worker.parsers import ClientResult
from worker.parsers.memaslap import (
    MemaslapProgressParser,
    client_result_from_memaslap,
    parse_memaslap,
)

# After its measured run memaslap sleeps this long before its final report and exit
# (libmemcached clients/ms_memslap.c, ms_monitor_slap_mode: "wait all threads clean up").
CLEAN_UP_SLEEP_S = 1.0

KEY_SIZE_B = 16


def config_text(spec: LoadSpec) -> str:
    """The -F file: fixed key and value sizes and the set/get proportions of the ratio."""
    sets, gets = spec.set_get
    total = sets + gets
    return (
        f"key\n{KEY_SIZE_B} {KEY_SIZE_B} 1\n"
        f"value\n{spec.value_size} {spec.value_size} 1\n"
        f"cmd\n0 {sets / total:.6f}\n1 {gets / total:.6f}\n"
    )


class MemaslapDriver(LoadGenerator):
    spec = load_generator_spec("memaslap")
    progress_suffix = "out"

    def prepare(self, spec: LoadSpec, workdir: str, name: str) -> None:
        path = f"{workdir}/{name}.cfg"
        self.host.run(f"printf %s {shlex.quote(config_text(spec))} > {shlex.quote(path)}")

    def argv(self, spec: LoadSpec, workdir: str, name: str) -> list[str]:
        concurrency = spec.threads * spec.clients_per_thread
        # memaslap sets every key of its windows before reading; size the windows so that
        # all connections together cover the key space, as memtier's key range does.
        window_k = max(1, round(spec.key_maximum / concurrency / 1000))
        argv = [
            self.binary,
            "-s",
            ",".join(f"{address}:{int(port)}" for address, port in spec.targets),
            "-T",
            str(spec.threads),
            "-c",
            str(concurrency),
            "-t",
            f"{spec.run_time_s}s",
            "-S",
            "1s",
            "-w",
            f"{window_k}k",
            "-F",
            f"{workdir}/{name}.cfg",
        ]
        if spec.multiget_size > 1:
            argv += ["-d", str(spec.multiget_size)]
        return argv

    def parse(self, local_dir: Path, name: str) -> ClientResult:
        text = (local_dir / f"{name}.out").read_text(errors="replace")
        return client_result_from_memaslap(parse_memaslap(text))

    def progress_parser(self) -> MemaslapProgressParser:
        return MemaslapProgressParser()

    def load_start_unix(
        self, local_dir: Path, name: str, result: ClientResult, launched_unix: float
    ) -> float:
        """memaslap measures from after its set-up (threads, connections, key windows: 0.14 s
        after launch on a quiet machine, 0.44 s beside four busy processes) to the end of its
        run, then sleeps a second and exits (measured: its final report 1.002 s after the run,
        the exit 8-20 ms later): exit - 1 s - measured run time is where its series begin."""
        ended = ended_unix(local_dir, name)
        if ended is None:
            return launched_unix
        return min(max(ended - CLEAN_UP_SLEEP_S - result.duration_s, launched_unix), ended)
