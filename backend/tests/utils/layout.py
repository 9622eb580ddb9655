"""Where a static figure put its parts: the plot areas and the legend box read from its SVG
(Plotly writes both as rectangles), and every word's box read from its PDF by poppler
(pdftotext -bbox: the fonts' real extents). Coordinates in points, origin top left."""

import re
import subprocess
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

SVG = "{http://www.w3.org/2000/svg}"
PT_PER_PX = 0.75  # Plotly's CSS pixels, 96 per inch, on a PDF page of 72 points per inch
EPS_PT = 0.5  # rounding between the SVG's pixels and the PDF's points


@dataclass(frozen=True)
class Box:
    x0: float
    y0: float
    x1: float
    y1: float

    def inside(self, outer: "Box") -> bool:
        return (
            self.x0 >= outer.x0 - EPS_PT
            and self.y0 >= outer.y0 - EPS_PT
            and self.x1 <= outer.x1 + EPS_PT
            and self.y1 <= outer.y1 + EPS_PT
        )

    def overlaps(self, other: "Box") -> bool:
        return (
            min(self.x1, other.x1) - max(self.x0, other.x0) > EPS_PT
            and min(self.y1, other.y1) - max(self.y0, other.y0) > EPS_PT
        )


@dataclass(frozen=True)
class Word:
    text: str
    box: Box


@dataclass(frozen=True)
class SvgLayout:
    page: Box
    plots: list[Box]  # one per cartesian subplot (the axes' clip rectangles)
    legend: Box | None
    level_texts: list[str]  # every text drawn level or at a right angle (not slanted)
    point_labels: list[str]  # the texts drawn at data points (scatter "text" mode)


def _translate(node: ET.Element) -> tuple[float, float]:
    m = re.search(r"translate\(([-\d.e]+)[ ,]+([-\d.e]+)\)", node.attrib.get("transform", ""))
    return (float(m.group(1)), float(m.group(2))) if m else (0.0, 0.0)


def _rect(rect: ET.Element, dx: float = 0.0, dy: float = 0.0) -> Box:
    x = float(rect.attrib.get("x", 0)) + dx
    y = float(rect.attrib.get("y", 0)) + dy
    w, h = float(rect.attrib["width"]), float(rect.attrib["height"])
    return Box(x * PT_PER_PX, y * PT_PER_PX, (x + w) * PT_PER_PX, (y + h) * PT_PER_PX)


def svg_layout(svg: bytes) -> SvgLayout:
    root = ET.fromstring(svg)
    page = Box(
        0, 0, float(root.attrib["width"]) * PT_PER_PX, float(root.attrib["height"]) * PT_PER_PX
    )
    # Plotly clips each subplot's axes to "clip<id>xy" (absolute x, y, width, height).
    plots = [
        _rect(r)
        for clip in root.iter(f"{SVG}clipPath")
        if clip.attrib.get("class") == "axesclip" and re.search(r"x\d*y\d*$", clip.attrib["id"])
        for r in clip.iter(f"{SVG}rect")
    ]
    legend = None
    for g in root.iter(f"{SVG}g"):
        if g.attrib.get("class") == "legend":
            dx, dy = _translate(g)
            bg = next(r for r in g.iter(f"{SVG}rect") if r.attrib.get("class") == "bg")
            legend = _rect(bg, dx, dy)
    point_labels = [
        _words(t)
        for g in root.iter(f"{SVG}g")
        if g.attrib.get("class") == "textpoint"
        for t in g.iter(f"{SVG}text")
        if _words(t)
    ]
    return SvgLayout(page, plots, legend, list(_level_texts(root, 0.0)), point_labels)


def _words(text: ET.Element) -> str:
    """A text element's words; its lines (tspans) are separate words."""
    return " ".join(" ".join(text.itertext()).split())


def _angle(node: ET.Element) -> float:
    m = re.search(r"rotate\(([-\d.e]+)", node.attrib.get("transform", ""))
    return float(m.group(1)) if m else 0.0


def _level_texts(node: ET.Element, angle: float) -> Iterator[str]:
    """The words of every text under `node` that is level or at a right angle."""
    angle += _angle(node)
    if node.tag == f"{SVG}text":
        if angle % 90 == 0 and _words(node):
            yield _words(node)
        return
    for child in node:
        yield from _level_texts(child, angle)


def pdf_words(path: Path) -> list[Word]:
    """Every word poppler finds on the page, in its reading order."""
    out = subprocess.run(
        ["pdftotext", "-bbox", str(path), "-"], check=True, capture_output=True, text=True
    ).stdout
    page = ET.fromstring(re.sub(r"<!DOCTYPE[^>]*>", "", out))
    return [
        Word(
            w.text or "",
            Box(*(float(w.attrib[k]) for k in ("xMin", "yMin", "xMax", "yMax"))),
        )
        for w in page.iter("{http://www.w3.org/1999/xhtml}word")
    ]


def find_phrase(words: list[Word], phrase: str) -> list[Word] | None:
    """The run of consecutive words that spells `phrase`, if poppler read it whole."""
    tokens = phrase.split()
    for i in range(len(words) - len(tokens) + 1):
        if [w.text for w in words[i : i + len(tokens)]] == tokens:
            return words[i : i + len(tokens)]
    return None
