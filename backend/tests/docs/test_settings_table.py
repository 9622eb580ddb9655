"""The configuration page's table is generated from the settings class: every setting, its
default as the code has it, and the comment written beside it."""

import importlib.util
from pathlib import Path
from types import ModuleType

from backend.core.config import Settings

HOOK = Path(__file__).resolve().parents[3] / "docs" / "hooks" / "settings_table.py"


def _hook() -> ModuleType:
    spec = importlib.util.spec_from_file_location("settings_table", HOOK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_setting_has_a_row_with_its_comment() -> None:
    rows = _hook().settings_rows()
    assert [r[0] for r in rows] == [f"`MCSCOPE_{name}`" for name in Settings.model_fields]
    by_name = {r[0]: r for r in rows}
    assert by_name["`MCSCOPE_RUNS_QUEUE`"][1] == '`"runs"`'
    assert "typo" in by_name["`MCSCOPE_GRID_MAX_CONFIGURATIONS`"][2]
    assert by_name["`MCSCOPE_GRID_MAX_RUNS`"][1] == "`20_000`"


def test_the_marker_is_replaced_by_the_table() -> None:
    page = _hook().on_page_markdown("before\n<!-- settings-table -->\nafter")
    assert "<!-- settings-table -->" not in page
    assert "| `MCSCOPE_DATABASE_URL` |" in page
