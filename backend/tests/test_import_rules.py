"""The import rules ([tool.importlinter] in pyproject.toml) hold: routes at the edge, the math
below the results core, services below figures, tables and the report, and nothing in the
product (backend, worker) importing the deployment folder (infra)."""

import os
import pathlib
import shutil
import subprocess
import sys
import tomllib

ROOT = pathlib.Path(__file__).resolve().parents[2]
EDGE = {"api", "main"}  # backend.main is the app factory: it mounts the routes


def _contracts() -> dict[str, dict[str, object]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    return {c["id"]: c for c in config["contracts"]}


def test_import_rules_hold() -> None:
    lint = pathlib.Path(sys.executable).parent / "lint-imports"
    done = subprocess.run(
        [str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_package_outside_the_edge_is_forbidden_the_routes() -> None:
    """A new backend package is under the rule as soon as it exists."""
    backend = ROOT / "backend"
    modules = {
        p.stem
        for p in backend.iterdir()
        if (p.is_dir() and (p / "__init__.py").exists())
        or (p.suffix == ".py" and p.stem != "__init__")
    }
    sources = _contracts()["api-at-the-edge"]["source_modules"]
    assert isinstance(sources, list)
    assert {s.removeprefix("backend.") for s in sources} == modules - EDGE


def test_an_infra_import_from_the_product_breaks_the_rule(tmp_path: pathlib.Path) -> None:
    """The product-without-infra contract catches a planted `infra` import in the backend and
    in the worker (a copy of the tree; the checkout is not touched)."""
    for package in ("backend", "worker", "infra"):
        shutil.copytree(
            ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / "backend" / "azure" / "planted.py").write_text(
        "from infra.azure.register import register\n"
    )
    (tmp_path / "worker" / "tasks" / "planted.py").write_text("import infra.install_plan\n")
    lint = pathlib.Path(sys.executable).parent / "lint-imports"
    done = subprocess.run(
        [str(lint), "--no-cache", "--contract", "product-without-infra"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "product-without-infra" in _contracts()
    assert "backend.azure.planted -> infra.azure.register" in done.stdout, done.stdout
    assert "worker.tasks.planted -> infra.install_plan" in done.stdout, done.stdout
