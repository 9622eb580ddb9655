"""Proving an attempt's processes gone from one host: find them, stop them, wait until gone.

A process belongs to an attempt when its working directory is the attempt's work directory
(every tool is started from there, `Host.start`; the directory name holds the run, the attempt
and a random token, and `(deleted)` is appended once it is removed), or when it is a PID the
attempt recorded with its kernel start time (an adopted kept server lives in an older attempt's
directory). Before each signal the PID's start time is read again (`/proc/<pid>/stat`, field
22, clock ticks since boot): a PID that ended and was reused by another process is never
signalled. A zombie counts as gone (it runs nothing; its parent reaps it). One round trip.
"""

import logging
import shlex
from dataclasses import dataclass

from worker.drivers.host import COMMAND_TIMEOUT_S, Host

logger = logging.getLogger(__name__)

# After SIGKILL, how long to wait for the kernel to take the processes down.
KILL_WAIT_S = 5.0
POLL_S = 0.05

# `st PID`: prints the start time of a live (non-zombie) PID; fails when gone. The stat line
# is "pid (comm) state ... starttime ..."; comm may hold ") ", so cut at the last one.
_STAT_FN = (
    'st() { read -r s 2>/dev/null < "/proc/$1/stat" || return 1; s=${s##*") "}; '
    "set -- $s; case $1 in Z|X|x) return 1;; esac; echo ${20}; }; "
    'live() { t=$(st "${1%:*}") && [ "$t" = "${1#*:}" ]; }'
)


@dataclass(frozen=True)
class Swept:
    """PIDs found running (and sent SIGTERM), those sent SIGKILL after the grace, and those
    still running after SIGKILL."""

    found: list[int]
    killed: list[int]
    left: list[int]


def sweep(
    host: Host,
    workdirs: list[str],
    recorded: list[tuple[int, int]],
    exclude: set[tuple[int, int | None]],
    grace_s: float,
) -> Swept:
    """Stop every process of these work directories and every recorded (pid, start ticks)
    still the same process, except `exclude` (kept servers: the testbed's, not an attempt's;
    (pid, start ticks), or (pid, None) for any process with that PID): SIGTERM, up to
    grace_s, SIGKILL, then wait until gone."""
    q = shlex.quote
    parts = [_STAT_FN, "C=''"]
    for workdir in workdirs:
        # Compare with the canonical path the kernel reports (the root may be a symlink).
        root, _, base = workdir.rstrip("/").rpartition("/")
        parts.append(
            f'r=$(cd {q(root or "/")} 2>/dev/null && pwd -P) && w="${{r%/}}/"{q(base)} && '
            "g=$(printf %s \"$w\" | sed 's/[][*?\\\\]/\\\\&/g') && "
            "for f in $(find /proc/[0-9]*/cwd -maxdepth 0 "
            '\\( -lname "$g" -o -lname "$g (deleted)" \\) 2>/dev/null); do '
            'p=${f#/proc/}; p=${p%/cwd}; t=$(st "$p") && C="$C $p:$t"; done'
        )
    for pid, ticks in recorded:
        parts.append(f'live {int(pid)}:{int(ticks)} && C="$C {int(pid)}:{int(ticks)}"')
    excluded = " ".join(
        f"{int(p)}:{int(t)}" if t is not None else str(int(p))
        for p, t in sorted(exclude, key=lambda x: (x[0], x[1] or 0))
    )
    term_steps = max(1, int(grace_s / POLL_S))
    kill_steps = max(1, int(KILL_WAIT_S / POLL_S))
    parts += [
        f"X=' {excluded} '; K=''",
        'for c in $C; do case "$X" in *" $c "*|*" ${c%:*} "*) ;; *) K="$K $c";; esac; done',
        'echo "found $K"',
        'for c in $K; do live "$c" && kill -TERM "${c%:*}" 2>/dev/null; done',
        'wait_gone() { i=0; while [ $i -lt $1 ]; do L=""; '
        'for c in $K; do live "$c" && L="$L $c"; done; [ -z "$L" ] && return; '
        "sleep 0.05; i=$((i+1)); done; }",
        f"wait_gone {term_steps}",
        'L=""; for c in $K; do live "$c" && L="$L $c"; done; echo "killed $L"',
        'for c in $L; do live "$c" && kill -KILL "${c%:*}" 2>/dev/null; done',
        f"wait_gone {kill_steps}",
        'L=""; for c in $K; do live "$c" && L="$L $c"; done; echo "left $L"',
    ]
    out = host.run("; ".join(parts), timeout=grace_s + KILL_WAIT_S + COMMAND_TIMEOUT_S)
    pids: dict[str, list[int]] = {"found": [], "killed": [], "left": []}
    for line in out.splitlines():
        key, _, rest = line.partition(" ")
        if key in pids:
            pids[key] = sorted({int(item.split(":")[0]) for item in rest.split()})
    swept = Swept(pids["found"], pids["killed"], pids["left"])
    if swept.found:
        logger.warning("sweep.stopped", extra={"host": host.spec.name, **pids})
    return swept
