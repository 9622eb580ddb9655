"""Authentication, trusted hosts, cross-origin writes and the body cap.

With a token configured, every operation of the OpenAPI document but health and login answers
401 without it: the list is read from the document, so a new route is covered by itself.
"""

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr
from sqlalchemy import delete
from sqlalchemy.orm import Session

from backend.core.config import REPO_ROOT, settings
from backend.models import ApiToken
from backend.tests.utils.experiment import create_random_experiment

API = settings.API_V1_STR
OPEN = {f"{API}/health", f"{API}/auth/login"}
ADMIN = "admin-" + "x" * 40


@pytest.fixture()
def admin_token(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setattr(settings, "ADMIN_TOKEN", SecretStr(ADMIN))
    yield ADMIN


@pytest.fixture()
def no_tokens(db: Session) -> Iterator[None]:
    # Token rows turn authentication on for every later test of this database: remove them.
    yield
    db.execute(delete(ApiToken))
    db.commit()


def _operations(client: TestClient) -> list[tuple[str, str]]:
    doc = client.get(f"{API}/openapi.json").json()
    ops = []
    for path, item in doc["paths"].items():
        for method in item:
            if method in {"get", "post", "put", "patch", "delete"}:
                ops.append((method.upper(), re.sub(r"\{[^}]+\}", "1", path)))
    return ops


def test_every_route_but_health_and_login_needs_the_token(
    client: TestClient, admin_token: str
) -> None:
    ops = _operations(client)
    assert len(ops) > 30
    protected = [(m, p) for m, p in ops if p not in OPEN]
    assert {p for _, p in ops} >= OPEN
    for method, path in protected:
        r = client.request(method, path)
        assert r.status_code == 401, (method, path, r.status_code, r.text)
        assert r.headers["www-authenticate"] == "Bearer"
        r = client.request(method, path, headers={"Authorization": "Bearer wrong"})
        assert r.status_code == 401, (method, path)
    assert client.get(f"{API}/health").status_code in (200, 503)
    auth = {"Authorization": f"Bearer {admin_token}"}
    for method, path in protected:
        r = client.request(method, path, headers=auth, params={"max_events": 1})
        assert r.status_code != 401, (method, path)


def test_login_checks_the_token(client: TestClient, admin_token: str) -> None:
    assert client.post(f"{API}/auth/login").status_code == 401
    bad = client.post(f"{API}/auth/login", headers={"Authorization": "Bearer nope"})
    assert bad.status_code == 401
    ok = client.post(f"{API}/auth/login", headers={"Authorization": f"Bearer {admin_token}"})
    assert ok.status_code == 200 and ok.json()["auth_required"] is True


def test_without_configuration_no_login_is_needed(client: TestClient) -> None:
    assert client.post(f"{API}/auth/login").json() == {"auth_required": False, "name": None}
    assert client.get(f"{API}/experiments").status_code == 200


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "backend.cli", *args],
        cwd=REPO_ROOT,
        env=os.environ.copy(),
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_cli_tokens_are_shown_once_stored_hashed_and_revocable(
    client: TestClient, db: Session, no_tokens: None
) -> None:
    created = _cli("token", "create", "ci")
    assert created.returncode == 0, created.stderr
    token = created.stdout.strip()
    assert token.startswith("mcs_") and len(token) > 40
    stored = db.query(ApiToken).filter_by(name="ci").one()
    assert token not in stored.digest and len(stored.digest) == 64
    # A token exists: authentication is configured, even with no admin token.
    assert client.get(f"{API}/experiments").status_code == 401
    auth = {"Authorization": f"Bearer {token}"}
    assert client.get(f"{API}/experiments", headers=auth).status_code == 200
    assert client.post(f"{API}/auth/login", headers=auth).json()["name"] == "ci"
    again = _cli("token", "create", "ci")
    assert again.returncode == 1 and "already exists" in again.stderr
    assert "ci\t" in _cli("token", "list").stdout
    assert _cli("token", "revoke", "ci").returncode == 0
    assert client.get(f"{API}/experiments", headers=auth).status_code == 401


def test_refuses_to_start_beyond_loopback_without_authentication(database: str) -> None:
    # Binds 127.0.0.1 for safety; MCSCOPE_API_HOST is what start.sh passes as --host.
    env = {**os.environ, "MCSCOPE_API_HOST": "0.0.0.0"}
    env.pop("MCSCOPE_ADMIN_TOKEN", None)
    proc = subprocess.run(
        [sys.executable, "-m", "uvicorn", "backend.main:app", "--host", "127.0.0.1", "--port", "0"],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode != 0
    assert "refusing to listen on 0.0.0.0 without authentication" in proc.stderr


def test_unknown_host_header_is_refused(client: TestClient) -> None:
    r = client.get(f"{API}/parameters", headers={"Host": "rebound.attacker.example"})
    assert r.status_code == 400


def test_cross_origin_state_changes_are_refused(client: TestClient) -> None:
    exp = create_random_experiment(client)
    cancel = f"{API}/experiments/{exp['id']}/cancel"
    r = client.post(cancel, headers={"Origin": "http://evil.example"})
    assert r.status_code == 403 and "cross-origin" in r.json()["detail"]
    r = client.post(cancel, headers={"Sec-Fetch-Site": "cross-site"})
    assert r.status_code == 403
    assert client.post(cancel, headers={"Origin": "http://testserver"}).status_code == 200
    assert client.post(cancel).status_code == 200


def test_request_body_is_capped(client: TestClient) -> None:
    big = b'{"name": "' + b"x" * (settings.MAX_BODY_BYTES + 1) + b'"}'
    r = client.post(f"{API}/experiments", content=big, headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and "larger than" in r.json()["detail"]

    def chunks() -> Iterator[bytes]:
        yield big[: len(big) // 2]
        yield big[len(big) // 2 :]

    r = client.post(
        f"{API}/experiments", content=chunks(), headers={"Content-Type": "application/json"}
    )
    assert r.status_code == 413


def _admin_token_sh(file: Path, **extra: str) -> str:
    env = {k: v for k, v in os.environ.items() if k != "MCSCOPE_ADMIN_TOKEN"} | extra
    proc = subprocess.run(
        ["bash", str(REPO_ROOT / "infra/local/admin-token.sh"), str(file)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return proc.stdout.strip()


def test_make_up_generates_an_admin_token_once(
    database: str, db: Session, tmp_path: Path, no_tokens: None
) -> None:
    file = tmp_path / "var" / "admin-token"
    token = _admin_token_sh(file)
    assert token.startswith("mcs_") and len(token) > 40
    assert file.read_text().strip() == token and file.stat().st_mode & 0o777 == 0o600
    assert _admin_token_sh(file) == token  # kept across restarts
    assert _admin_token_sh(file, MCSCOPE_ADMIN_TOKEN="y" * 40) == "y" * 40
    # Tokens managed with the CLI: nothing generated.
    other = tmp_path / "other"
    assert _cli("token", "create", "alice").returncode == 0
    assert _admin_token_sh(other) == "" and not other.exists()


def test_an_expired_token_is_refused(client: TestClient, db: Session, no_tokens: None) -> None:
    from datetime import UTC, datetime, timedelta

    from backend.core import tokens

    past = datetime.now(UTC) - timedelta(seconds=1)
    expired = tokens.create(db, "expired", expires_at=past)
    valid = tokens.create(db, "valid", expires_at=datetime.now(UTC) + timedelta(days=1))
    r = client.get(f"{API}/experiments", headers={"Authorization": f"Bearer {expired}"})
    assert r.status_code == 401 and r.headers["www-authenticate"] == "Bearer"
    login = client.post(f"{API}/auth/login", headers={"Authorization": f"Bearer {expired}"})
    assert login.status_code == 401
    ok = client.get(f"{API}/experiments", headers={"Authorization": f"Bearer {valid}"})
    assert ok.status_code == 200


def test_cli_tokens_expire_by_default_and_on_request(db: Session, no_tokens: None) -> None:
    assert _cli("token", "create", "default").returncode == 0
    assert _cli("token", "create", "short", "--expires-in-days", "0.5").returncode == 0
    assert _cli("token", "create", "forever", "--no-expiry").returncode == 0
    rows = {r.name: r for r in db.query(ApiToken)}
    ttl = settings.TOKEN_TTL_DAYS
    assert ttl is not None
    days = {
        n: (r.expires_at - r.created_at).total_seconds() / 86400
        for n, r in rows.items()
        if r.expires_at is not None
    }
    assert set(days) == {"default", "short"} and rows["forever"].expires_at is None
    assert abs(days["default"] - ttl) < 0.01 and abs(days["short"] - 0.5) < 0.01
    listed = _cli("token", "list").stdout
    assert "forever\t" in listed and "no expiry" in listed and "active, expires" in listed


def test_the_admin_token_is_rotated(
    client: TestClient, admin_token: str, tmp_path: Path, no_tokens: None
) -> None:
    """`token rotate-admin` revokes the environment's admin token (the running API refuses it
    at once), writes a new one where `make up` keeps it and prints it; the new one works
    without a restart, and rotating again retires it in turn."""
    file = tmp_path / "var" / "admin-token"
    file.parent.mkdir()
    file.write_text(admin_token + "\n")

    def rotate() -> str:
        env = {**os.environ, "MCSCOPE_ADMIN_TOKEN": admin_token}
        proc = subprocess.run(
            [sys.executable, "-m", "backend.cli", "token", "rotate-admin", "--file", str(file)],
            cwd=REPO_ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode == 0, proc.stderr
        return proc.stdout.strip()

    def status(token: str) -> int:
        auth = {"Authorization": f"Bearer {token}"}
        return int(client.get(f"{API}/experiments", headers=auth).status_code)

    assert status(admin_token) == 200
    first = rotate()
    assert first.startswith("mcs_") and first != admin_token
    assert file.read_text().strip() == first and file.stat().st_mode & 0o777 == 0o600
    assert status(admin_token) == 401
    assert status(first) == 200
    second = rotate()
    assert status(first) == 401 and status(admin_token) == 401
    assert status(second) == 200 and file.read_text().strip() == second
