"""Typed driver errors: each says what failed and on which host, with the stderr tail."""


class DriverError(RuntimeError):
    """A remote step failed; the message names the host and the step."""


class TransientDriverError(DriverError):
    """Worth retrying later: the host could not be reached or the SSH session broke."""


class HostUnreachableError(TransientDriverError):
    pass


class AddressRefusedError(DriverError):
    """The host's address is one testbed hosts may not have: not connected to, not retried."""


class CommandError(DriverError):
    """A remote command exited non-zero (or timed out)."""

    def __init__(self, host: str, command: str, exit_code: int | None, stderr: str) -> None:
        tail = stderr.strip()[-500:]
        code = "timed out" if exit_code is None else f"exit {exit_code}"
        super().__init__(f"{host}: `{command[:200]}` failed ({code}): {tail}")
        self.host = host
        self.command = command
        self.exit_code = exit_code
        self.stderr = stderr


class ToolMissingError(DriverError):
    pass


class PortInUseError(DriverError):
    pass


class ArchiveError(DriverError):
    """The run's outputs could not be archived on the worker (disk full); they stay on the host."""


class ProcessDiedError(DriverError):
    """A process the run depends on exited before it should have."""
