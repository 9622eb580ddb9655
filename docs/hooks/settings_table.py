"""MkDocs hook: the configuration page's table of settings, read from `backend/core/config.py`.

The settings class is the one home of every setting, its default and the comment saying why;
this hook parses that file (no import: building the docs needs no database or backend deps) and
replaces the `<!-- settings-table -->` marker with one row per setting.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

MARKER = "<!-- settings-table -->"
CONFIG = Path(__file__).resolve().parents[2] / "backend" / "core" / "config.py"


def _comment_above(lines: list[str], lineno: int) -> str:
    """The contiguous `#` comment lines right above line `lineno` (1-based), joined."""
    out: list[str] = []
    i = lineno - 2
    while i >= 0 and lines[i].strip().startswith("#") and not lines[i].strip().startswith("# ---"):
        out.append(lines[i].strip().lstrip("#").strip())
        i -= 1
    return " ".join(reversed(out))


def _default(source: str, node: ast.expr | None) -> str:
    if node is None:
        return "(required)"
    if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Field":
        for kw in node.keywords:
            if kw.arg == "default":
                return ast.get_source_segment(source, kw.value) or ""
            if kw.arg == "default_factory":
                return f"computed: `{ast.get_source_segment(source, kw.value)}`"
    return ast.get_source_segment(source, node) or ""


def settings_rows() -> list[tuple[str, str, str]]:
    """(environment variable, default, meaning) for every field of `Settings`."""
    source = CONFIG.read_text()
    lines = source.splitlines()
    tree = ast.parse(source)
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Settings")
    rows = []
    for node in cls.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            name = node.target.id
            default = _default(source, node.value).replace("|", "\\|").replace("\n", " ")
            if not default.startswith("computed"):
                default = f"`{default}`"
            rows.append((f"`MCSCOPE_{name}`", default, _comment_above(lines, node.lineno)))
    return rows


def on_page_markdown(markdown: str, **_: Any) -> str:
    if MARKER not in markdown:
        return markdown
    table = ["| variable | default | meaning |", "|---|---|---|"]
    table += [f"| {n} | {d} | {m.replace('|', '/')} |" for n, d, m in settings_rows()]
    return markdown.replace(MARKER, "\n".join(table))
