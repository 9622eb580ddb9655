"""Figure files drawn by Chromium (kaleido) show the scripts a user's names and levels hold:
Chinese, Japanese, Korean and accented Latin set in real glyphs (set-up installs the fonts),
not in the empty boxes a missing font leaves."""

import subprocess
from pathlib import Path

import plotly.graph_objects as go
import pytest

from backend.figures.export import FigureFormat, render_figure
from backend.schemas.figure import FigureOutput

TEXT = ("吞吐量", "スループット", "처리량", "Überprüfung")
# Private-use code points: no font has glyphs for them, so they are drawn as the boxes a
# missing font would leave; the same count of characters as TEXT, word by word.
BOXES = tuple("".join(chr(0xE000 + i) for i in range(len(word))) for word in TEXT)


def _figure(words: tuple[str, ...]) -> go.Figure:
    fig = go.Figure(go.Scatter(x=[1, 2, 3], y=[3, 1, 2], name=words[0]))
    fig.add_scatter(x=[1, 2, 3], y=[2, 2, 1], name=words[1])
    fig.update_layout(xaxis_title=f"{words[2]} clients", yaxis_title=f"{words[3]} ops/s")
    return fig


@pytest.mark.parametrize("fmt", ["png", "pdf"])
def test_scripts_are_drawn_in_glyphs_not_boxes(fmt: FigureFormat, tmp_path: Path) -> None:
    out = FigureOutput(width="column", dpi=150)
    drawn = render_figure(_figure(TEXT), fmt, out).content
    boxes = render_figure(_figure(BOXES), fmt, out).content
    if fmt == "png":
        # Boxes are all alike: with a font missing, both files would be the same picture.
        assert drawn != boxes
        return
    path = tmp_path / "figure.pdf"
    path.write_bytes(drawn)
    # The text stays text (searchable, copyable), in the same words.
    text = subprocess.run(
        ["pdftotext", str(path), "-"], check=True, capture_output=True, text=True
    ).stdout
    for word in TEXT:
        assert word in text, text
