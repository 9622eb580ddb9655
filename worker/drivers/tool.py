"""What every tool driver shares: finding the binary, its version, start and stop by PID."""

import shlex

from worker.drivers.errors import ToolMissingError
from worker.drivers.host import Host, RemoteProcess


class ToolDriver:
    """A remote tool on one host. Subclasses build argv from typed values only."""

    tool = "tool"
    candidates: tuple[str, ...] = ()
    version_args: tuple[str, ...] = ("--version",)

    def __init__(self, host: Host, binary: str | None = None) -> None:
        self.host = host
        self._binary = binary

    @property
    def binary(self) -> str:
        if self._binary is None:
            self._binary = self.host.located.get(self.tool) or self.locate()
        return self._binary

    def locate(self) -> str:
        """The first candidate on the host's PATH (or an absolute path that is executable)."""
        for name in self.candidates:
            out = self.host.run(f"command -v {shlex.quote(name)} || true").strip()
            if out:
                self.host.located[self.tool] = out
                return out
        raise ToolMissingError(
            f"{self.host.label}: {self.tool} not found (looked for {', '.join(self.candidates)})"
        )

    def check(self) -> str:
        """The binary's path; ToolMissingError naming the host if it is not there."""
        if self._binary is not None:
            q = shlex.quote(self._binary)
            if self.host.run(f"test -x {q} && echo y || echo n").strip() != "y":
                raise ToolMissingError(
                    f"{self.host.label}: {self.tool} not found at {self._binary}"
                )
            return self._binary
        return self.binary

    def check_version(self) -> str:
        """check() and version() in one round trip where the binary is known."""
        if self._binary is None:
            self.check()
        return self.version_checked()

    def version_checked(self) -> str:
        q = shlex.quote(self.binary)
        cmd = shlex.join([self.binary, *self.version_args])
        out = self.host.run(f"test -x {q} || {{ echo missing; exit 0; }}; {cmd} 2>&1 | head -n 1")
        if out.strip() == "missing":
            raise ToolMissingError(f"{self.host.label}: {self.tool} not found at {self.binary}")
        return out.strip() or "unknown"

    def version_shell(self) -> str:
        """Shell code printing the version of the binary in $b on one line."""
        return f'"$b" {shlex.join(self.version_args)} 2>&1 | head -n 1'

    def probe_shell(self) -> str:
        """Shell code printing the binary's path and version, or MISSING (see probe_tools)."""
        if self._binary is not None:
            find = f"b={shlex.quote(self._binary)}"
        else:
            names = " ".join(shlex.quote(c) for c in self.candidates)
            find = f'b=""; for c in {names}; do b=$(command -v "$c") && break; b=""; done'
        return (
            f"echo {shlex.quote('@@' + self.tool)}; {find}; "
            f'if [ -n "$b" ] && [ -x "$b" ]; then echo "$b"; {self.version_shell()}; echo; '
            "else echo MISSING; echo; fi"
        )

    def installed(self) -> bool:
        try:
            self.locate()
        except ToolMissingError:
            return False
        return True

    def version(self) -> str:
        cmd = shlex.join([self.binary, *self.version_args])
        out = self.host.run(f"{cmd} 2>&1 | head -n 1", check=False).strip()
        return out or "unknown"

    def launch(self, argv: list[str], workdir: str, name: str) -> RemoteProcess:
        return self.host.start(argv, workdir, name)

    def stop(self, proc: RemoteProcess, grace_s: float = 10.0) -> bool:
        return self.host.stop(proc.pid, grace_s)


def probe_tools(host: Host, drivers: list[ToolDriver]) -> dict[str, str | None]:
    """Locate every tool and read its version in one round trip: tool -> version (None when
    missing). Found binaries are remembered on the host, so later steps do not look again."""
    if not drivers:
        return {}
    lines = host.run("; ".join(d.probe_shell() for d in drivers)).splitlines()
    found: dict[str, str | None] = {}
    for i, line in enumerate(lines):
        if not line.startswith("@@"):
            continue
        tool = line[2:]
        path = lines[i + 1] if i + 1 < len(lines) else "MISSING"
        if path == "MISSING":
            host.located.pop(tool, None)
            found[tool] = None
            continue
        host.located[tool] = path
        version = lines[i + 2].strip() if i + 2 < len(lines) else ""
        found[tool] = version or "unknown"
    return found
