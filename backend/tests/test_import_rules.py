"""The backend's import rules ([tool.importlinter] in pyproject.toml) hold: routes at the edge,
the math below the results core, services below figures, tables and the report."""

import pathlib
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
