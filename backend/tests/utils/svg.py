"""Where Plotly's SVG puts text: annotation boxes as the quadrilaterals they are drawn as
(their rotation applied) and the colour bar's box, to check that printed text does not
overlap."""

import math
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

SVG = "{http://www.w3.org/2000/svg}"
Point = tuple[float, float]


@dataclass(frozen=True)
class TextBox:
    text: str
    corners: list[Point]  # in the figure's pixels, in drawing order
    style: str = ""  # the background rectangle's (fill, fill-opacity)


def _numbers(pattern: str, transform: str) -> list[float]:
    found = re.search(pattern, transform)
    return [float(v) for v in found.groups()] if found else []


def annotation_boxes(root: ET.Element) -> list[TextBox]:
    """Every annotation's box: the rectangle Plotly sizes to the measured text, moved and
    rotated as drawn (`rotate(angle, cx, cy)` around `translate(x, y)`)."""
    boxes = []
    for g in root.iter(f"{SVG}g"):
        if g.attrib.get("class") != "annotation-text-g":
            continue
        angle, cx, cy = _numbers(
            r"rotate\(([-\d.e]+),\s*([-\d.e]+),\s*([-\d.e]+)\)", g.attrib["transform"]
        )
        inner = g[0]
        tx, ty = _numbers(r"translate\(([-\d.e]+),\s*([-\d.e]+)\)", inner.attrib["transform"])
        rect = inner.find(f"{SVG}rect")
        text = inner.find(f"{SVG}text")
        assert rect is not None and text is not None
        x, y, w, h = (float(rect.attrib[k]) for k in ("x", "y", "width", "height"))
        c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        corners = []
        for px, py in ((x, y), (x + w, y), (x + w, y + h), (x, y + h)):
            dx, dy = px + tx - cx, py + ty - cy
            corners.append((cx + c * dx - s * dy, cy + s * dx + c * dy))
        boxes.append(TextBox("".join(text.itertext()), corners, rect.attrib.get("style", "")))
    return boxes


def colourbar_box(root: ET.Element) -> TextBox:
    """The colour bar's background rectangle, which holds its bar, tick labels and title."""
    (bar,) = (g for g in root.iter(f"{SVG}g") if "colorbar" in g.attrib.get("class", "").split())
    transform = bar.attrib.get("transform", "")
    tx, ty = _numbers(r"translate\(([-\d.e]+),\s*([-\d.e]+)\)", transform) or [0.0, 0.0]
    bg = next(r for r in bar.iter(f"{SVG}rect") if r.attrib.get("class") == "cbbg")
    x, y, w, h = (float(bg.attrib[k]) for k in ("x", "y", "width", "height"))
    x, y = x + tx, y + ty
    return TextBox("colour bar", [(x, y), (x + w, y), (x + w, y + h), (x, y + h)])


def overlap(a: TextBox, b: TextBox) -> bool:
    """Whether two convex quadrilaterals overlap (more than touch): no edge of either
    separates them (separating axis theorem)."""
    for poly in (a.corners, b.corners):
        for (x1, y1), (x2, y2) in zip(poly, poly[1:] + poly[:1], strict=True):
            nx, ny = y2 - y1, x1 - x2
            pa = [nx * x + ny * y for x, y in a.corners]
            pb = [nx * x + ny * y for x, y in b.corners]
            if max(pa) <= min(pb) or max(pb) <= min(pa):
                return False
    return True


def polyline_segments(root: ET.Element) -> list[tuple[Point, Point]]:
    """The segments of every scatter trace's line, in the figure's pixels (the plot's
    `translate` applied): what a parallel-coordinates figure draws its configurations with."""
    segments = []
    for xy in root.iter(f"{SVG}g"):
        if "xy" not in xy.attrib.get("class", "").split():
            continue
        shift = _numbers(r"translate\(([-\d.e]+),\s*([-\d.e]+)\)", xy.attrib.get("transform", ""))
        if not shift:
            continue  # the subplot's grid group: the traces are drawn in the translated one
        dx, dy = shift
        for path in xy.iter(f"{SVG}path"):
            if "js-line" not in path.attrib.get("class", ""):
                continue
            for run in re.findall(r"M[^M]+", path.attrib["d"]):
                pts = [
                    (float(x) + dx, float(y) + dy)
                    for x, y in re.findall(r"([-\d.e]+),([-\d.e]+)", run)
                ]
                segments += list(zip(pts, pts[1:], strict=False))
    return segments


def crosses(box: TextBox, segment: tuple[Point, Point]) -> bool:
    """Whether a segment runs through an unrotated box (clipped to it: Liang-Barsky)."""
    xs = [x for x, _ in box.corners]
    ys = [y for _, y in box.corners]
    (x0, y0), (x1, y1) = segment
    lo, hi = 0.0, 1.0
    for p, q in (
        (x0 - x1, x0 - min(xs)),
        (x1 - x0, max(xs) - x0),
        (y0 - y1, y0 - min(ys)),
        (y1 - y0, max(ys) - y0),
    ):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        lo, hi = (max(lo, t), hi) if p < 0 else (lo, min(hi, t))
    return lo < hi
