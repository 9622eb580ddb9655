"""Static figures (PDF, SVG, PNG) through Plotly's own engine: kaleido driving Chromium.

Starting Chromium takes seconds, a render a fraction of one, so one browser is kept open
for the life of the process on a private event loop thread and every request renders in
it. Kaleido is handed the Debian chromium's path (settings.BROWSER_PATH) and MathJax is
off, so it never downloads a browser or a script.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from concurrent.futures import Future
from pathlib import Path
from typing import Any, Literal

import kaleido
import plotly.graph_objects as go
from kaleido._kaleido_tab import _devtools_utils as _kaleido_devtools

from backend.core.config import settings
from backend.figures.style import PX_PER_IN

logger = logging.getLogger(__name__)

StaticFormat = Literal["pdf", "svg", "png"]
# How each file begins (an SVG after its XML prologue, if any).
_MAGIC = {"pdf": b"%PDF-", "png": b"\x89PNG\r\n\x1a\n", "svg": b"<svg"}
_MAGIC_WITHIN = 512
MEDIA_TYPES: dict[str, str] = {
    "pdf": "application/pdf",
    "svg": "image/svg+xml",
    "png": "image/png",
    "json": "application/json",
}


async def _print_pdf_without_margins(tab: Any) -> Any:
    """kaleido's PDF step with zero page margins.

    kaleido sizes the page to the figure but prints with 0.1 in margins, which shifts the
    figure by 0.1 in and cuts its bottom and right edges (the x-axis title lost half its
    height). The same DevTools call without margins puts the figure exactly on the page.
    """
    params = {
        "printBackground": True,
        "marginTop": 0,
        "marginBottom": 0,
        "marginLeft": 0,
        "marginRight": 0,
        "preferCSSPageSize": True,
        "pageRanges": "1",
    }
    response = await tab.send_command("Page.printToPDF", params=params)
    _kaleido_devtools._raise_error(response)
    return response.get("result", {}).get("data")


_kaleido_devtools.print_pdf = _print_pdf_without_margins


class RenderError(RuntimeError):
    """The browser could not be started or failed to render."""


class FigureRenderer:
    """One warm kaleido browser on its own event loop; safe to call from many threads."""

    def __init__(self, browser_path: Path, timeout_s: float = 60.0) -> None:
        self._browser_path = browser_path
        self._timeout_s = timeout_s
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._kaleido: kaleido.Kaleido | None = None

    @property
    def is_open(self) -> bool:
        return self._kaleido is not None

    def open(self) -> None:
        """Start the loop and the browser unless they run already (the cold start)."""
        with self._lock:
            if self._kaleido is not None:
                return
            if not self._browser_path.is_file():
                raise RenderError(f"no browser at {self._browser_path} (MCSCOPE_BROWSER_PATH)")
            loop = asyncio.new_event_loop()
            thread = threading.Thread(target=loop.run_forever, name="kaleido", daemon=True)
            thread.start()
            k = kaleido.Kaleido(
                n=1, timeout=self._timeout_s, path=str(self._browser_path), mathjax=False
            )
            try:
                self._wait(asyncio.run_coroutine_threadsafe(k.open(), loop))
            except Exception as err:
                loop.call_soon_threadsafe(loop.stop)
                thread.join()
                raise RenderError(f"could not start the browser: {err}") from err
            self._loop, self._thread, self._kaleido = loop, thread, k

    def warm_up(self) -> None:
        """open(), logging instead of raising: for a background start with the app."""
        try:
            self.open()
        except RenderError:
            logger.exception("figures.warm_up_failed")

    def render(
        self, fig: go.Figure, fmt: StaticFormat, width_in: float, height_in: float, dpi: int
    ) -> bytes:
        """The figure at its printed size; PNG at `dpi` pixels per inch."""
        self.open()
        assert self._kaleido is not None and self._loop is not None
        opts: dict[str, Any] = {
            "format": fmt,
            "width": width_in * PX_PER_IN,
            "height": height_in * PX_PER_IN,
            "scale": dpi / PX_PER_IN if fmt == "png" else 1,
        }
        job = self._kaleido.calc_fig(fig, opts=opts)
        try:
            out = self._wait(asyncio.run_coroutine_threadsafe(job, self._loop))
        except Exception as err:
            self.close()  # a broken browser is restarted by the next call
            raise RenderError(f"rendering failed: {err}") from err
        content = bytes(out)
        if _MAGIC[fmt] not in content[:_MAGIC_WITHIN]:
            # A canvas the browser refused comes back as a few bytes, not as an error.
            raise RenderError(f"rendering failed: the browser gave no {fmt} ({len(content)} bytes)")
        return content

    def close(self) -> None:
        """Close the browser and stop the loop (idempotent)."""
        with self._lock:
            k, loop, thread = self._kaleido, self._loop, self._thread
            self._kaleido = self._loop = self._thread = None
        if k is not None and loop is not None:
            try:
                self._wait(asyncio.run_coroutine_threadsafe(k.close(), loop))
            except Exception:  # noqa: BLE001 - closing a dead browser must not fail shutdown
                pass
            loop.call_soon_threadsafe(loop.stop)
        if thread is not None:
            thread.join(timeout=10)

    def _wait(self, future: Future[Any]) -> Any:
        return future.result(timeout=self._timeout_s)


renderer = FigureRenderer(settings.BROWSER_PATH)
