"""Host.run through the long-lived shell (real sshd on 127.0.0.1): commands cannot disturb the
session or each other, stdout, stderr and exit codes come back intact, a timeout or a dead
shell is reported and the next command gets a fresh shell."""

import shlex

import pytest

from worker.drivers.errors import CommandError, HostUnreachableError
from worker.drivers.host import Host


def test_run_returns_stdout_exactly(host: Host) -> None:
    assert host.run("printf 'a\\nb'") == "a\nb"
    assert host.run("printf 'x\\n\\n'") == "x\n\n"
    assert host.run("true") == ""
    # Output that looks like the framing does not end the command early.
    assert host.run("echo '@@rc-0000 0'; echo '@@end-0000'; echo last").splitlines()[-1] == "last"


def test_run_reports_exit_code_and_stderr(host: Host) -> None:
    with pytest.raises(CommandError, match=r"\(exit 3\): boom") as info:
        host.run("echo out; echo boom >&2; exit 3")
    assert info.value.exit_code == 3
    assert host.run("echo boom >&2; exit 3", check=False) == ""
    assert host.run("echo after") == "after\n"


def test_commands_cannot_touch_the_session(host: Host) -> None:
    before = host.run("pwd")
    host.run("cd /; X=1; exit 0")
    assert host.run("pwd") == before
    assert host.run('echo "${X:-unset}"') == "unset\n"
    # A command reading stdin reads nothing (not the commands that follow).
    assert host.run("cat; echo done") == "done\n"
    assert host.run("echo still") == "still\n"


def test_bash_started_by_a_command_does_not_source_bashrc(host: Host) -> None:
    # bash sources ~/.bashrc when it sees SSH_CLIENT (0.3-0.5 s with root's pyenv init): a
    # .bashrc that prints proves it is not read by the bash a command starts.
    home = host.run("mktemp -d").strip()
    try:
        host.run(f"echo 'echo sourced' > {home}/.bashrc")
        assert host.run(f"HOME={home} bash -c 'echo ran'") == "ran\n"
        assert host.run(f"HOME={home} SSH_CLIENT=x bash -c 'echo ran'") == "sourced\nran\n"
    finally:
        host.run(f"rm -rf {home}")


def test_quoting_and_large_output_survive(host: Host) -> None:
    text = 'it\'s "quoted" $HOME `x` \\ \t end'
    assert host.run(f"printf %s {shlex.quote(text)}") == text
    big = host.run("head -c 300000 /dev/zero | tr '\\0' 'y'")
    assert big == "y" * 300000


def test_background_process_does_not_hold_the_session(host: Host) -> None:
    workdir = host.run("mktemp -d").strip()
    try:
        proc = host.start(["sleep", "30"], workdir, "sleeper")
        assert host.alive(proc.pid)
        assert host.run("echo next") == "next\n"
        assert host.stop(proc.pid, grace_s=2)
    finally:
        host.run(f"rm -rf {workdir}")


def test_timeout_fails_the_command_and_the_next_one_runs(host: Host) -> None:
    with pytest.raises(CommandError, match="timed out"):
        host.run("sleep 5", timeout=0.5)
    assert host.run("echo fresh") == "fresh\n"


def test_a_killed_shell_is_unreachable_then_replaced(host: Host) -> None:
    with pytest.raises(HostUnreachableError):
        host.run("kill -KILL $PPID; sleep 5")
    assert host.run("echo back") == "back\n"
