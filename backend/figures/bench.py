"""Benchmark of static figure rendering: the cold start against a warm renderer.

Prints timings and their ratio, never fails on them. A warm render is what every request
after the first pays; a cold one is a one-shot kaleido call (browser started per figure).
Run: .venv/bin/python -m backend.figures.bench
"""

from __future__ import annotations

import statistics
import time

import kaleido
import plotly.graph_objects as go

from backend.core.config import settings
from backend.figures.render import FigureRenderer
from backend.figures.style import REPORT, apply_style, default_height_in
from backend.schemas.figure import COLUMN_WIDTH_IN


def _figure() -> go.Figure:
    """A typical report figure: three series of eight points with error bars."""
    fig = go.Figure()
    for workers in (8, 16, 32):
        xs = [1, 2, 4, 8, 16, 32, 64, 128]
        ys = [min(x * 900.0, workers * 1100.0) for x in xs]
        fig.add_trace(
            go.Scatter(
                x=xs,
                y=ys,
                name=f"{workers} worker threads",
                error_y={"type": "data", "array": [y * 0.03 for y in ys]},
            )
        )
    return apply_style(fig, REPORT, COLUMN_WIDTH_IN, None)


def main() -> None:
    fig = _figure()
    height = default_height_in(REPORT, COLUMN_WIDTH_IN)
    opts = {"format": "pdf", "width": fig.layout.width, "height": fig.layout.height}
    cold = []
    for _ in range(2):
        start = time.perf_counter()
        kaleido.calc_fig_sync(fig, opts=opts, kopts={"path": str(settings.BROWSER_PATH)})
        cold.append(time.perf_counter() - start)
    r = FigureRenderer(settings.BROWSER_PATH)
    start = time.perf_counter()
    r.open()
    first = r.render(fig, "pdf", COLUMN_WIDTH_IN, height, 300)
    first_s = time.perf_counter() - start
    warm = {}
    try:
        for fmt in ("pdf", "svg", "png"):
            times = []
            for _ in range(10):
                start = time.perf_counter()
                r.render(fig, fmt, COLUMN_WIDTH_IN, height, 300)
                times.append(time.perf_counter() - start)
            warm[fmt] = statistics.median(times)
    finally:
        r.close()
    print(f"cold one-shot PDF (browser per figure): {min(cold):.3f} s (best of 2)")
    print(f"first PDF of a renderer (browser start + render): {first_s:.3f} s, {len(first)} B")
    for fmt, t in warm.items():
        print(f"warm {fmt}: {t * 1000:.0f} ms median of 10; cold/warm = {min(cold) / t:.1f}x")


if __name__ == "__main__":
    main()
