"""A host's archive of outputs is unpacked only to plain names below the run's folder: links,
devices, absolute and `..` paths refuse it, and members and bytes are capped."""

import io
import tarfile
from collections.abc import Callable
from pathlib import Path

import pytest

from worker.drivers.archive import ArchiveError, extract_outputs
from worker.drivers.host import Host
from worker.runs.testbed import local_host

# Reaches the test hosts but runs no load on them: with the load-free tests (conftest.py).
pytestmark = pytest.mark.hosts_without_load

CAPS = {"max_members": 50, "max_bytes": 10_000}


def _tar(path: Path, build: Callable[[tarfile.TarFile], None]) -> Path:
    with tarfile.open(path, "w:gz") as tar:
        build(tar)
    return path


def _file(tar: tarfile.TarFile, name: str, data: bytes = b"x") -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    tar.addfile(info, io.BytesIO(data))


def _special(kind: bytes, name: str, link: str = "") -> Callable[[tarfile.TarFile], None]:
    def build(tar: tarfile.TarFile) -> None:
        _file(tar, "client-0.out")
        info = tarfile.TarInfo(name)
        info.type = kind
        info.linkname = link
        tar.addfile(info)

    return build


def test_plain_outputs_are_unpacked(tmp_path: Path) -> None:
    def build(tar: tarfile.TarFile) -> None:
        tar.addfile(tarfile.TarInfo("."))
        _file(tar, "./client-0.out", b"hello")
        _file(tar, "./mw-0/stats.csv", b"1,2")

    dest = tmp_path / "run"
    assert extract_outputs(_tar(tmp_path / "a.tgz", build), dest, **CAPS) == 2
    assert (dest / "client-0.out").read_bytes() == b"hello"
    assert (dest / "mw-0" / "stats.csv").read_bytes() == b"1,2"


@pytest.mark.parametrize(
    "build",
    [
        _special(tarfile.SYMTYPE, "evil", "/etc/passwd"),
        _special(tarfile.LNKTYPE, "hard", "client-0.out"),
        _special(tarfile.CHRTYPE, "zero"),
        _special(tarfile.FIFOTYPE, "fifo"),
        lambda tar: _file(tar, "/etc/cron.d/x"),
        lambda tar: _file(tar, "../../escape"),
        lambda tar: _file(tar, "a/../../escape"),
        lambda tar: _file(tar, "-rf"),
        lambda tar: _file(tar, "a/b/c/d/e/deep"),
    ],
    ids=[
        "symlink",
        "hardlink",
        "device",
        "fifo",
        "absolute",
        "dotdot",
        "inner-dotdot",
        "dash",
        "deep",
    ],
)
def test_unsafe_members_refuse_the_archive(
    tmp_path: Path, build: Callable[[tarfile.TarFile], None]
) -> None:
    dest = tmp_path / "run"
    with pytest.raises(ArchiveError):
        extract_outputs(_tar(tmp_path / "a.tgz", build), dest, **CAPS)
    assert {p for p in tmp_path.rglob("*") if not p.is_relative_to(dest)} == {tmp_path / "a.tgz"}


def test_member_count_and_size_are_capped(tmp_path: Path) -> None:
    def build(tar: tarfile.TarFile) -> None:
        for i in range(51):
            _file(tar, f"f{i}")

    many = _tar(tmp_path / "many.tgz", build)
    with pytest.raises(ArchiveError, match="more than 50 members"):
        extract_outputs(many, tmp_path / "r1", **CAPS)
    # A small download that unpacks big (zeros compress well).
    big = _tar(tmp_path / "big.tgz", lambda t: _file(t, "out", bytes(10_001)))
    assert big.stat().st_size < 1_000
    with pytest.raises(ArchiveError, match="more than 10000 bytes"):
        extract_outputs(big, tmp_path / "r2", **CAPS)


def test_fetch_over_ssh_refuses_a_link_in_the_outputs(local_sshd: None, tmp_path: Path) -> None:
    remote = tmp_path / "remote"
    remote.mkdir()
    (remote / "client-0.out").write_text("ok")
    host = Host(local_host())
    try:
        host.fetch_tree(str(remote), tmp_path / "fetched")
        assert (tmp_path / "fetched" / "client-0.out").read_text() == "ok"
        (remote / "passwd").symlink_to("/etc/passwd")
        with pytest.raises(ArchiveError, match="refused: member './passwd' is not a regular"):
            host.fetch_tree(str(remote), tmp_path / "again")
        assert not (tmp_path / "again" / "passwd").exists()
    finally:
        host.close()


def test_fetch_waits_for_the_exit_code_and_takes_a_growing_log(
    local_sshd: None, tmp_path: Path
) -> None:
    """A stopped tool's wrapper writes its .rc just after the tool exits (tar used to fail
    with "file changed as we read it"), a log still being written must not fail a fetch, and
    a process still running (a server kept for the next run) has no .rc to wait for."""
    remote = tmp_path / "remote"
    remote.mkdir()
    host = Host(local_host())
    try:
        # A tool that ended, its wrapper writing the exit code 0.3 s after the fetch starts.
        ended = host.start(["true"], str(remote), "client-0")
        assert host.wait_exit(ended, 5) == 0
        rc = remote / "client-0.rc"
        host.run(f"rm {rc}; (sleep 0.3; echo 0 > {rc}) >/dev/null 2>&1 &")
        # A kept server: still running, no .rc.
        kept = host.start(["sleep", "30"], str(remote), "server-0")
        # And a process that keeps appending to its log during the fetch.
        writer = host.start(
            ["sh", "-c", "while :; do echo line >> growing.log; done"], str(remote), "writer"
        )
        (remote / "writer.rc").write_text("0\n")  # its own wrapper counts as done
        host.fetch_tree(str(remote), tmp_path / "fetched")
        assert (tmp_path / "fetched" / "client-0.rc").read_text().strip() == "0"
        assert (tmp_path / "fetched" / "growing.log").stat().st_size > 0
        assert (tmp_path / "fetched" / "server-0.pid").exists()
        assert not (tmp_path / "fetched" / "server-0.rc").exists()
    finally:
        host.stop(writer.pid)
        host.stop(kept.pid)
        host.close()
