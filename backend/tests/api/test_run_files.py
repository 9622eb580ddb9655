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
