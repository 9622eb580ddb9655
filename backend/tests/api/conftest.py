"""Fixtures shared by the API tests that export figures."""

from collections.abc import Iterator

import pytest

from backend.figures.render import renderer


@pytest.fixture(scope="module")
def closes_renderer() -> Iterator[None]:
    """The warm kaleido browser is closed after the module that exported figures with it."""
    yield
    renderer.close()
