"""The import rules ([tool.importlinter] in pyproject.toml) hold: routes at the edge, FastAPI
only at the edge, the math below the results core, services below figures, tables and the
report, and nothing in the product (backend, worker) importing the deployment folder (infra)."""

import os
import pathlib
import shutil
import subprocess
import sys
import tomllib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
EDGE = {"api", "main"}  # backend.main is the app factory: it mounts the routes
# The HTTP edge: the routes, the app factory and the UI and docs it mounts; the benchmark
# scripts drive the app through FastAPI's TestClient, as tests do.
HTTP_EDGE = {"api", "main", "ui", "docs", "scripts"}
LINT = pathlib.Path(sys.executable).parent / "lint-imports"


def _contracts() -> dict[str, dict[str, object]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    return {c["id"]: c for c in config["contracts"]}


def _lint(root: pathlib.Path, *args: str) -> subprocess.CompletedProcess[str]:
    # The root first on the path, so the linter reads this tree's packages.
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run(
        [str(LINT), "--no-cache", *args],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def _copy_tree(to: pathlib.Path) -> None:
    """The three root packages and the rules, without tests: a tree to plant violations in."""
    shutil.copy(ROOT / "pyproject.toml", to)
    for package in ("backend", "worker", "infra"):
        shutil.copytree(
            ROOT / package, to / package, ignore=shutil.ignore_patterns("tests", "__pycache__")
        )


def _backend_packages() -> set[str]:
    backend = ROOT / "backend"
    return {
        p.stem
        for p in backend.iterdir()
        if (p.is_dir() and (p / "__init__.py").exists())
        or (p.suffix == ".py" and p.stem != "__init__")
    }


def test_import_rules_hold() -> None:
    done = _lint(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize(
    ("planted", "contract"),
    [
        ("from fastapi import HTTPException\n", "imports FastAPI or Starlette BROKEN"),
        ("from starlette.responses import Response\n", "imports FastAPI or Starlette BROKEN"),
        ("import backend.api.deps\n", "imports \nbackend.api BROKEN"),
    ],
)
def test_a_planted_violation_breaks_its_contract(
    tmp_path: pathlib.Path, planted: str, contract: str
) -> None:
    """The contracts catch what they forbid: a service module importing the HTTP layer."""
    _copy_tree(tmp_path)
    (tmp_path / "backend" / "results" / "planted.py").write_text(planted)
    done = _lint(tmp_path)
    assert done.returncode != 0
    assert contract in done.stdout, done.stdout
    assert "backend.results.planted" in done.stdout


def test_every_package_outside_the_edge_is_forbidden_the_routes() -> None:
    """A new backend package is under the rule as soon as it exists."""
    sources = _contracts()["api-at-the-edge"]["source_modules"]
    assert isinstance(sources, list)
    assert {s.removeprefix("backend.") for s in sources} == _backend_packages() - EDGE


def test_every_package_outside_the_http_edge_is_forbidden_fastapi() -> None:
    """A new backend package may not speak HTTP as soon as it exists."""
    sources = _contracts()["http-at-the-edge"]["source_modules"]
    assert isinstance(sources, list)
    assert {s.removeprefix("backend.") for s in sources} == _backend_packages() - HTTP_EDGE


def test_an_infra_import_from_the_product_breaks_the_rule(tmp_path: pathlib.Path) -> None:
    """The product-without-infra contract catches a planted `infra` import in the backend and
    in the worker (a copy of the tree; the checkout is not touched)."""
    _copy_tree(tmp_path)
    (tmp_path / "backend" / "azure" / "planted.py").write_text(
        "from infra.azure.register import register\n"
    )
    (tmp_path / "worker" / "tasks" / "planted.py").write_text("import infra.install_plan\n")
    done = _lint(tmp_path, "--contract", "product-without-infra")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "product-without-infra" in _contracts()
    assert "backend.azure.planted -> infra.azure.register" in done.stdout, done.stdout
    assert "worker.tasks.planted -> infra.install_plan" in done.stdout, done.stdout
