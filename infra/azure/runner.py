"""Runs the `az` CLI: argument lists only (never a shell string), every argument checked,
a timeout on every call, JSON output parsed."""

from __future__ import annotations

import json
import logging
import re
import shlex
import shutil
import subprocess
from collections.abc import Sequence
from typing import Any

logger = logging.getLogger(__name__)

# az groups this tool is allowed to drive; anything else is a programming error.
ALLOWED_GROUPS = frozenset({"group", "network", "vm"})
# Printable characters only: no NUL, newline or other control bytes in any argument.
_SAFE_ARG = re.compile(r"^[\x20-\x7e]*$")
_NOT_FOUND = re.compile(
    r"ResourceNotFound|ResourceGroupNotFound|NotFound|was not found|could not be found"
)

DEFAULT_TIMEOUT_S = 120.0
# `vm create` waits for provisioning (not for cloud-init), which takes a few minutes.
CREATE_TIMEOUT_S = 900.0


class AzError(RuntimeError):
    """An az call failed; carries the command line and the tail of its stderr."""

    def __init__(self, argv: Sequence[str], returncode: int, stderr: str) -> None:
        self.argv = list(argv)
        self.returncode = returncode
        self.stderr = stderr
        tail = stderr.strip().splitlines()[-5:]
        super().__init__(f"{shlex.join(argv)} exited {returncode}: {' | '.join(tail)}")


def validate_args(args: Sequence[str]) -> list[str]:
    """Reject anything that is not a plain list of printable strings for an allowed group."""
    if not args or args[0] not in ALLOWED_GROUPS:
        raise ValueError(f"unsupported az command: {list(args)[:2]}")
    out: list[str] = []
    for a in args:
        if not isinstance(a, str) or not _SAFE_ARG.match(a) or len(a) > 4096:
            raise ValueError(f"unsafe az argument: {a!r}")
        out.append(a)
    return out


def command_line(args: Sequence[str]) -> str:
    """The command as a user would type it (quoted for display only, never executed)."""
    return shlex.join(["az", *validate_args(args), "--output", "json"])


class AzRunner:
    """Small wrapper around the az executable found on PATH."""

    def __init__(self, az: str | None = None, timeout_s: float = DEFAULT_TIMEOUT_S) -> None:
        found = az or shutil.which("az")
        if found is None:
            raise FileNotFoundError("az CLI not found on PATH (install azure-cli, then az login)")
        self.az = found
        self.timeout_s = timeout_s

    def run(self, args: Sequence[str], timeout_s: float | None = None) -> Any:
        """Run one command and return its parsed JSON output (None when it printed nothing)."""
        proc = self._call(args, timeout_s)
        if proc.returncode != 0:
            raise AzError(["az", *args], proc.returncode, proc.stderr)
        return json.loads(proc.stdout) if proc.stdout.strip() else None

    def exists(self, show_args: Sequence[str]) -> bool:
        """True if `az ... show` finds the resource, False if Azure says it is not there."""
        proc = self._call(show_args, None)
        if proc.returncode == 0:
            return True
        if _NOT_FOUND.search(proc.stderr):
            return False
        # Anything else (not logged in, throttled, no network) must stop `up`, not look absent.
        raise AzError(["az", *show_args], proc.returncode, proc.stderr)

    def _call(
        self, args: Sequence[str], timeout_s: float | None
    ) -> subprocess.CompletedProcess[str]:
        argv = [self.az, *validate_args(args), "--output", "json"]
        logger.debug("az.call", extra={"argv": argv})
        try:
            return subprocess.run(
                argv,
                capture_output=True,
                text=True,
                timeout=timeout_s or self.timeout_s,
                check=False,
                shell=False,
            )
        except subprocess.TimeoutExpired as e:
            raise AzError(["az", *args], -1, f"timed out after {e.timeout} s") from e
