"""Every query lives in backend/crud: outside it (and the models, core infrastructure and the
benchmark scripts) no module builds a SQL statement or runs one.

The rule, as this test enforces it on the syntax tree of each module:
- from sqlalchemy only `Session` (a type) and `sqlalchemy.exc` (a commit's IntegrityError) may be
  imported; `select`, `func`, `update`, `text`, ... may not;
- no `.execute(...)`, `.scalar(...)`, `.scalars(...)` or `.query(...)` on a session.
A route may still load a row by its key (`session.get`), add, delete and commit, as the
template's routes do: the unit of work is the route's, the statements are crud's.
"""

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BACKEND = ROOT / "backend"
# Where SQL may be written: the queries, the tables, the engine and process-wide infrastructure,
# the benchmark scripts (they seed databases), the tests.
EXEMPT = ("crud", "models", "core", "scripts", "tests")
ALLOWED_NAMES = {"sqlalchemy.orm": {"Session"}}
ALLOWED_MODULES = {"sqlalchemy.exc"}
RUNNERS = {"execute", "scalar", "scalars", "query"}


def _receiver(node: ast.expr) -> str:
    """The last name of what a method is called on: `self.session` -> "session"."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def violations(source: str) -> list[str]:
    """Each SQL statement import or statement run in `source`, with its line."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [
                f"{node.lineno}: import {a.name}"
                for a in node.names
                if a.name.split(".")[0] == "sqlalchemy" and a.name not in ALLOWED_MODULES
            ]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "sqlalchemy":
            module = node.module or ""
            if module in ALLOWED_MODULES:
                continue
            allowed = ALLOWED_NAMES.get(module, set())
            found += [
                f"{node.lineno}: from {module} import {a.name}"
                for a in node.names
                if a.name not in allowed
            ]
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in RUNNERS
            and "session" in _receiver(node.func.value).lower()
        ):
            found.append(f"{node.lineno}: {_receiver(node.func.value)}.{node.func.attr}(...)")
    return found


def _modules() -> list[pathlib.Path]:
    return sorted(p for p in BACKEND.rglob("*.py") if p.relative_to(BACKEND).parts[0] not in EXEMPT)


def test_every_query_lives_in_crud() -> None:
    bad = {str(p.relative_to(ROOT)): v for p in _modules() if (v := violations(p.read_text()))}
    assert not bad, "SQL outside backend/crud:\n" + "\n".join(f"{k} {v}" for k, v in bad.items())


@pytest.mark.parametrize(
    "planted",
    [
        "from sqlalchemy import select\n",
        "from sqlalchemy import func, Session\n",
        "import sqlalchemy\n",
        "from sqlalchemy.orm import selectinload\n",
        "def f(session):\n    return session.scalar(q)\n",
        "def f(self):\n    return self.session.execute(q)\n",
        "def f(db_session):\n    return db_session.scalars(q).all()\n",
    ],
)
def test_a_planted_query_is_found(planted: str) -> None:
    assert violations(planted)


@pytest.mark.parametrize(
    "allowed",
    [
        "from sqlalchemy.orm import Session\n",
        "from sqlalchemy.exc import IntegrityError\n",
        "def f(session):\n    return session.get(Run, 1)\n",
        "def f(pipe):\n    return pipe.execute()\n",
    ],
)
def test_what_a_route_may_do_is_allowed(allowed: str) -> None:
    assert not violations(allowed)
