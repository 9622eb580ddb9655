"""A run's raw files as a streamed zip; deleting the experiment removes them."""

import io
import zipfile

from fastapi.testclient import TestClient

from backend.core.run_files import run_archive_dir
from backend.tests.utils.experiment import create_random_experiment

API = "/api/v1"


def test_run_files_zip_then_removed_with_experiment(client: TestClient) -> None:
    exp = create_random_experiment(client, factors={"workers": [8]}, repetitions=2)
    client.post(f"{API}/experiments/{exp['id']}/start")
    client.post(f"{API}/experiments/{exp['id']}/cancel")
    runs = client.get(f"{API}/experiments/{exp['id']}/runs").json()["data"]
    with_files, without = runs[0]["id"], runs[1]["id"]
    root = run_archive_dir(with_files)
    (root / "attempt-1-abc" / "client-0").mkdir(parents=True)
    (root / "attempt-1-abc" / "client-0" / "memtier.json").write_text('{"ops": 1}')
    (root / "attempt-1-abc" / "mw.log").write_bytes(b"x" * 100_000)

    r = client.get(f"{API}/runs/{with_files}/files")
    assert r.status_code == 200
    assert r.headers["content-type"] == "application/zip"
    assert f'filename="run-{with_files}.zip"' in r.headers["content-disposition"]
    assert int(r.headers["content-length"]) == len(r.content)
    with zipfile.ZipFile(io.BytesIO(r.content)) as z:
        assert sorted(z.namelist()) == [
            f"run-{with_files}/attempt-1-abc/client-0/memtier.json",
            f"run-{with_files}/attempt-1-abc/mw.log",
        ]
        assert z.read(f"run-{with_files}/attempt-1-abc/client-0/memtier.json") == b'{"ops": 1}'
        assert len(z.read(f"run-{with_files}/attempt-1-abc/mw.log")) == 100_000

    r = client.get(f"{API}/runs/{without}/files")
    assert (r.status_code, r.json()["detail"]) == (404, "Run has no raw files")
    r = client.get(f"{API}/runs/999999999/files")
    assert (r.status_code, r.json()["detail"]) == (404, "Run not found")

    assert client.delete(f"{API}/experiments/{exp['id']}").status_code == 204
    assert not root.exists()


def _run_with_files(client: TestClient) -> int:
    exp = create_random_experiment(client, factors={"workers": [8]}, repetitions=1)
    client.post(f"{API}/experiments/{exp['id']}/start")
    client.post(f"{API}/experiments/{exp['id']}/cancel")
    run_id: int = client.get(f"{API}/experiments/{exp['id']}/runs").json()["data"][0]["id"]
    host = run_archive_dir(run_id) / "attempt-1-abc" / "local"
    host.mkdir(parents=True)
    (host / "client-0.err").write_text("connection refused\n" * 3)
    # 70,000 lines of 'é' (2 bytes each + newline): the 64 KiB page boundary cuts a character.
    (host / "server-0.out").write_text("é\n" * 70_000, encoding="utf-8")
    (host / "stats.bin").write_bytes(b"\x00\x01\x02" * 10)
    return run_id


def test_run_file_index_lists_every_file_with_its_size(client: TestClient) -> None:
    run_id = _run_with_files(client)
    r = client.get(f"{API}/runs/{run_id}/files/index")
    assert r.status_code == 200
    assert r.json() == {
        "data": [
            {"path": "attempt-1-abc/local/client-0.err", "size_bytes": 57},
            {"path": "attempt-1-abc/local/server-0.out", "size_bytes": 210_000},
            {"path": "attempt-1-abc/local/stats.bin", "size_bytes": 30},
        ],
        "count": 3,
    }
    assert client.get(f"{API}/runs/999999999/files/index").status_code == 404


def test_run_file_text_pages_through_a_large_file(client: TestClient) -> None:
    """Pages join to the whole file, each ends on a whole character, the last has no next."""
    run_id = _run_with_files(client)
    path = "attempt-1-abc/local/server-0.out"
    text, offset, pages = "", 0, 0
    while offset is not None:
        r = client.get(f"{API}/runs/{run_id}/files/text", params={"path": path, "offset": offset})
        assert r.status_code == 200, r.text
        page = r.json()
        assert page["size_bytes"] == 210_000 and not page["binary"]
        assert "\ufffd" not in page["text"]
        text += page["text"]
        offset, pages = page["next_offset"], pages + 1
    assert text == "é\n" * 70_000
    assert pages == 4  # 210,000 bytes in pages of at most 65,536


def test_run_file_text_says_binary_and_raw_downloads_it(client: TestClient) -> None:
    run_id = _run_with_files(client)
    path = "attempt-1-abc/local/stats.bin"
    page = client.get(f"{API}/runs/{run_id}/files/text", params={"path": path}).json()
    assert (page["binary"], page["text"], page["next_offset"]) == (True, "", None)
    raw = client.get(f"{API}/runs/{run_id}/files/raw", params={"path": path})
    assert raw.status_code == 200 and raw.content == b"\x00\x01\x02" * 10
    assert "attachment" in raw.headers["content-disposition"]


def test_run_file_paths_cannot_leave_the_archive(client: TestClient) -> None:
    run_id = _run_with_files(client)
    outside = run_archive_dir(run_id).parent / "secret.txt"
    outside.write_text("not yours")
    (run_archive_dir(run_id) / "link").symlink_to(outside)
    # A name longer than the file system allows (255 bytes) failed its lookup with a 500 (found
    # by `make fuzz-api`).
    too_long = "a" * 256
    for path in [
        "../secret.txt",
        "/etc/passwd",
        "link",
        "attempt-1-abc",
        "missing.txt",
        too_long,
        f"attempt-1-abc/{too_long}",
    ]:
        for kind in ("text", "raw"):
            r = client.get(f"{API}/runs/{run_id}/files/{kind}", params={"path": path})
            assert r.status_code == 422, (path, kind, r.text)
            assert r.json()["detail"][0]["loc"] == ["query", "path"]
    r = client.get(
        f"{API}/runs/{run_id}/files/text",
        params={"path": "attempt-1-abc/local/client-0.err", "offset": 58},
    )
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["query", "offset"]
    outside.unlink()
