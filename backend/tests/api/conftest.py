"""Fixtures shared by the API tests that export figures."""

from collections.abc import Iterator

import pytest

from backend.figures.render import renderer


@pytest.fixture(scope="module")
def closes_renderer() -> Iterator[None]:
    """The warm kaleido browser is closed after the module that exported figures with it.

    Not kept for the whole session: an idle browser takes about 3 % of a core (0.58 CPU s in
    20 s), which over a run of the load-free tests costs about what its starts here save (10
    modules: 125 -> 106-112 CPU s of the machine with one browser; measured 2026-11-30)."""
    yield
    renderer.close()
