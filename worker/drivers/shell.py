"""One long-lived `/bin/sh` per host on one SSH channel, fed framed commands.

Each SSH exec channel costs sshd a fork and a start of the user's login shell with its rc files
on the host: 0.15-0.25 s on the local testbed (root's .bashrc runs `pyenv init`), about 20 times
per run. This shell is started once per connection; a command is then one round trip inside the
open channel. Every command runs in its own subshell with stdin from /dev/null, so `exit`, `cd`
or a tool reading stdin cannot touch the session; its stderr goes to a file on the host whose
tail comes back after the exit code, so one stream carries everything (no stderr back-pressure).
Framing: the command travels base64-encoded, the replies end with markers holding a fresh random
token, so no output can end a command early.
"""

import base64
import secrets
import threading
import time
from dataclasses import dataclass

import paramiko

# The most of a command's stderr brought back (error messages keep their tail).
STDERR_TAIL_B = 4000
_RECV_B = 65536


class ShellTimeout(Exception):
    """The command did not finish in time; the session is closed (its state is unknown)."""

    def __init__(self, stdout: str, stderr: str) -> None:
        super().__init__("timed out")
        self.stdout = stdout
        self.stderr = stderr


class ShellGone(Exception):
    """The channel or the shell ended (connection dropped, shell killed)."""


@dataclass(frozen=True)
class ShellResult:
    exited: int
    stdout: str
    stderr: str


class ShellSession:
    """A `/bin/sh` reading commands from its channel; one command at a time (locked)."""

    def __init__(self, transport: paramiko.Transport, open_timeout_s: float) -> None:
        self._lock = threading.Lock()
        self._buf = b""
        self._channel = transport.open_session(timeout=open_timeout_s)
        # The login shell (and its rc files) runs once, then becomes a plain POSIX shell. Its
        # own stderr is dropped; $E keeps each command's stderr, removed when the shell ends.
        # Without SSH_CLIENT, a `bash` a command starts (populate, memcached stats, the stop's
        # wake-up) does not source ~/.bashrc as bash does under sshd: 0.3-0.5 s each on the
        # local testbed (root's .bashrc runs `pyenv init`), 5 ms without.
        self._channel.exec_command("exec /bin/sh")
        self._send(
            'exec 2>/dev/null; E=$(mktemp "${TMPDIR:-/tmp}/mcscope-sh.XXXXXX") || exit 1; '
            "trap 'rm -f \"$E\"' EXIT HUP TERM; unset SSH_CLIENT SSH2_CLIENT\n"
        )
        # A first command proves the shell reads its input (and pays the start-up now).
        try:
            self.run("true", open_timeout_s)
        except ShellTimeout as exc:
            raise ShellGone(f"no shell prompt in {open_timeout_s} s") from exc

    @property
    def alive(self) -> bool:
        return not (self._channel.closed or self._channel.exit_status_ready())

    def close(self) -> None:
        self._channel.close()

    def _send(self, text: str) -> None:
        try:
            self._channel.sendall(text.encode())
        except (OSError, EOFError, paramiko.SSHException) as exc:
            self.close()
            raise ShellGone(str(exc)) from exc

    def _read_until(self, marker: bytes, deadline: float) -> bytes:
        """Bytes up to `marker` (removed from the buffer with it)."""
        while (i := self._buf.find(marker)) < 0:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError
            self._channel.settimeout(remaining)
            try:
                chunk = self._channel.recv(_RECV_B)
            except TimeoutError:  # socket.timeout; an OSError, so caught before those
                raise
            except (OSError, EOFError, paramiko.SSHException) as exc:
                self.close()
                raise ShellGone(str(exc)) from exc
            if not chunk:
                self.close()
                raise ShellGone("the shell on the host ended")
            self._buf += chunk
        out, self._buf = self._buf[:i], self._buf[i + len(marker) :]
        return out

    def run(self, command: str, timeout_s: float) -> ShellResult:
        """Run one command; its exit code, stdout and the tail of its stderr."""
        with self._lock:
            token = secrets.token_hex(8)
            script = base64.b64encode(command.encode()).decode()
            self._send(
                f'(eval "$(printf %s {script} | base64 -d)") </dev/null 2>"$E"; '
                f"printf '\\n@@rc-{token} %d\\n' $?; tail -c {STDERR_TAIL_B} \"$E\"; "
                f"printf '\\n@@end-{token}\\n'\n"
            )
            deadline = time.monotonic() + timeout_s
            try:
                stdout = self._read_until(f"\n@@rc-{token} ".encode(), deadline)
                code = self._read_until(b"\n", deadline)
                stderr = self._read_until(f"\n@@end-{token}\n".encode(), deadline)
            except TimeoutError:
                partial = self._buf.decode(errors="replace")
                self.close()  # the command may still run; this session cannot be reused
                raise ShellTimeout(partial, "") from None
            return ShellResult(
                int(code), stdout.decode(errors="replace"), stderr.decode(errors="replace")
            )
