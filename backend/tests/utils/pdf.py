"""What poppler says of an exported figure PDF: a report figure is vector (fonts, no image),
set in the report's serif at the asked width, with every word on the page."""

import re
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

REPORT_FONTS = ("LiberationSerif", "TimesNewRoman")


def poppler_lines(tool: str, path: Path) -> list[str]:
    """The table rows `pdffonts` or `pdfimages -list` prints (header lines dropped)."""
    out = subprocess.run(
        [tool, *(["-list"] if tool == "pdfimages" else []), str(path)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return [line for line in out.splitlines()[2:] if line.strip()]


def page_size_pt(path: Path) -> tuple[float, float]:
    info = subprocess.run(["pdfinfo", str(path)], check=True, capture_output=True, text=True)
    size = next(line for line in info.stdout.splitlines() if line.startswith("Page size"))
    return float(size.split()[2]), float(size.split()[4])


def assert_vector_report_pdf(path: Path, width_in: float) -> tuple[float, float]:
    """Text as text in the report serif, no raster image, the page as wide as asked; returns
    the page size in points."""
    fonts = poppler_lines("pdffonts", path)
    assert any(name in f for f in fonts for name in REPORT_FONTS), fonts
    assert poppler_lines("pdfimages", path) == [], "vector: no raster image"
    width_pt, height_pt = page_size_pt(path)
    assert width_pt == pytest.approx(width_in * 72, abs=1.5)
    return width_pt, height_pt


def assert_words_on_page(path: Path) -> list[str]:
    """Every word lies on the page (nothing cut at an edge); returns the words."""
    width_pt, height_pt = page_size_pt(path)
    bbox = subprocess.run(
        ["pdftotext", "-bbox", str(path), "-"], check=True, capture_output=True, text=True
    ).stdout
    page = ET.fromstring(re.sub(r"<!DOCTYPE[^>]*>", "", bbox))
    words = list(page.iter("{http://www.w3.org/1999/xhtml}word"))
    assert words
    for w in words:
        assert float(w.attrib["xMin"]) >= 0 and float(w.attrib["yMin"]) >= 0, w.text
        assert float(w.attrib["xMax"]) <= width_pt and float(w.attrib["yMax"]) <= height_pt, w.text
    return [w.text or "" for w in words]
