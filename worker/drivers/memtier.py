"""memtier_benchmark: the preferred load generator (used when installed or selected)."""

from pathlib import Path

from backend.domain.load_generators import (
    MEMTIER_EXPIRY_S,
    MEMTIER_KEY_PREFIX,
    load_generator_spec,
)
from worker.drivers.loadgen import LoadGenerator, LoadSpec
from worker.parsers import ClientResult
from worker.parsers.memtier import PRINTED_PERCENTILES, MemtierProgressParser, read_memtier_result

PERCENTILES = ",".join(f"{p:g}" for p in PRINTED_PERCENTILES)
# The keys memtier reads are KEY_PREFIX + 1 .. key_maximum; populate writes exactly those.
KEY_PREFIX = MEMTIER_KEY_PREFIX
EXPIRY_S = MEMTIER_EXPIRY_S
# Populating with memtier itself costs at least a whole second whatever the key space: its main
# thread checks on its workers in a `sleep(1)` loop (memtier_benchmark.cpp, run_benchmark), so
# even 1000 keys written in 10 ms end after 1 s. This writes the same keys (same prefix,
# indices, size, flags 0) on one pipelined connection from the client host: awk streams the
# sets and a `quit`, a second awk counts the replies until memcached closes the connection,
# and the exit code says whether every key was STORED (any other reply is printed on stderr).
POPULATE_SCRIPT = r"""exec 3<>"/dev/tcp/$1/$2" || exit 2
awk -v n="$3" -v size="$4" -v prefix="$5" -v ttl="$6" 'BEGIN {
  v = "x"; while (length(v) < size) v = v v; v = substr(v, 1, size)
  for (i = 1; i <= n; i++) printf "set %s%d 0 %d %d\r\n%s\r\n", prefix, i, ttl, size, v
  printf "quit\r\n" }' >&3 &
awk -v n="$3" '{ sub(/\r$/, "") } $0 == "STORED" { s++; next }
  { print "unexpected reply: " $0 > "/dev/stderr"; bad++ }
  END { print s + 0, "keys stored"; exit (s == n && !bad) ? 0 : 1 }' <&3
rc=$?; wait; exit $rc"""


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
            f"--key-prefix={KEY_PREFIX}",
            "--key-minimum=1",
            f"--key-maximum={spec.key_maximum}",
            f"--expiry-range={EXPIRY_S}-{EXPIRY_S + 1}",
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
        if spec.rate_limit > 0:
            argv.append(f"--rate-limiting={spec.rate_limit}")
        return argv

    def populate_argv(self, spec: LoadSpec) -> list[str]:
        """Write every key the run reads once (see POPULATE_SCRIPT): milliseconds, not 1 s."""
        address, port = spec.targets[0]
        return [
            "bash",
            "-c",
            POPULATE_SCRIPT,
            "mcscope-populate",
            address,
            str(port),
            str(spec.key_maximum),
            str(spec.value_size),
            KEY_PREFIX,
            str(EXPIRY_S),
        ]

    def parse(self, local_dir: Path, name: str) -> ClientResult:
        """memtier's JSON (exact percentiles and histograms); see read_memtier_result."""
        return read_memtier_result(local_dir, name)

    def progress_parser(self) -> MemtierProgressParser:
        return MemtierProgressParser()
