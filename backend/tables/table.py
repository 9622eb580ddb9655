"""A report table and its two renderings, CSV and LaTeX: the one table writer of the product.

A `Table` is columns (title, unit, decimals, optional group) and rows of cells. LaTeX output
is a booktabs table: grouped headers with \\cmidrule, units in the headers, numbers right-
aligned with the same decimals per column (so the decimal points line up, no extra package),
thousands separated by thin spaces, a caption and a \\label; a narrow table (one column of a
two-column paper) stacks its headers; every table is measured by LaTeX itself and floated as
a table* over both columns when it is wider than a column (see `to_latex`). CSV keeps full
precision and puts the unit in each header ("throughput mean (ops/s)").
"""

from __future__ import annotations

import csv
import io
import math
import re
from dataclasses import dataclass, field, replace
from typing import Any

from backend.tables.latex_text import escape_latex


@dataclass(frozen=True)
class Number:
    """A number printed with its own decimals rather than its column's (rows of a column that
    hold different metrics, e.g. ops/s without decimals, µs with one)."""

    value: float | None
    decimals: int


Cell = str | int | float | bool | Number | None

HEADER_LINE_CHARS = 11  # a narrow table's header lines: "Clients per", "thread", "(ops/s)"
NARROW_TABCOLSEP = "4pt"  # between a narrow table's columns; LaTeX's default is 6pt


@dataclass(frozen=True)
class Column:
    """One column: `decimals` None for text (left-aligned), else a number (right-aligned)."""

    title: str
    unit: str | None = None
    decimals: int | None = None
    group: str | None = None  # a header spanning neighbouring columns, e.g. "Throughput"

    @property
    def numeric(self) -> bool:
        return self.decimals is not None

    def header(self) -> str:
        return f"{self.title} ({self.unit})" if self.unit else self.title


@dataclass(frozen=True)
class Table:
    columns: list[Column]
    rows: list[list[Cell]]
    caption: str
    label: str
    notes: list[str] = field(default_factory=list)
    # Layout of the LaTeX float: `wide` spans both columns of a two-column paper (table*);
    # `narrow` fits one column: headers stacked over lines, columns set closer.
    wide: bool = False
    narrow: bool = False
    # LaTeX only: a title per row; where it changes, a line spanning the table names the rows
    # that follow (e.g. each metric with its unit), instead of a column repeating it.
    sections: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        for row in self.rows:
            if len(row) != len(self.columns):
                raise ValueError(f"row of {len(row)} cells for {len(self.columns)} columns")
        if self.sections and len(self.sections) != len(self.rows):
            raise ValueError(f"{len(self.sections)} section titles for {len(self.rows)} rows")


def _csv_cell(value: Cell) -> Any:
    if isinstance(value, Number):
        value = value.value
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return value


def to_csv(table: Table) -> str:
    """RFC 4180 CSV: one header row (group and unit in each title), full precision."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([f"{c.group} {c.header()}" if c.group else c.header() for c in table.columns])
    for row in table.rows:
        writer.writerow([_csv_cell(v) for v in row])
    return out.getvalue()


def format_number(value: float, decimals: int) -> str:
    """12345.678 -> "12\\,345.7" (thin-space thousands, fixed decimals, minus as $-$)."""
    text = f"{abs(value):,.{decimals}f}".replace(",", r"\,")
    return ("$-$" + text) if value < 0 and float(f"{value:.{decimals}f}") != 0 else text


def _latex_cell(value: Cell, column: Column) -> str:
    if isinstance(value, Number):
        column = Column(column.title, column.unit, value.decimals)
        value = value.value
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "--"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if column.decimals is not None and isinstance(value, int | float):
        return format_number(float(value), column.decimals)
    return escape_latex(str(value))


def _stacked(column: Column) -> str:
    """A header over several lines (the unit on its own), in core LaTeX's \\shortstack."""
    lines: list[str] = []
    for word in column.title.split():
        if lines and len(lines[-1]) + 1 + len(word) <= HEADER_LINE_CHARS:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    lines += [f"({column.unit})"] if column.unit else []
    if len(lines) == 1:
        return escape_latex(lines[0])
    side = "r" if column.numeric else "l"
    body = r"\\".join(escape_latex(x) for x in lines)
    return rf"\shortstack[{side}]{{{body}}}"


def _header_rows(columns: list[Column], narrow: bool = False) -> list[str]:
    """Group row (with \\cmidrule under each group) when any column has a group, then titles."""
    lines = []
    if any(c.group for c in columns):
        cells, rules, i = [], [], 0
        while i < len(columns):
            group = columns[i].group
            j = i
            while j + 1 < len(columns) and group and columns[j + 1].group == group:
                j += 1
            if group:
                cells.append(rf"\multicolumn{{{j - i + 1}}}{{c}}{{{escape_latex(group)}}}")
                rules.append(rf"\cmidrule(lr){{{i + 1}-{j + 1}}}")
            else:
                cells.extend([""] * (j - i + 1))
            i = j + 1
        lines.append(" & ".join(cells) + r" \\")
        lines.append(" ".join(rules))
    titles = [_stacked(c) if narrow else escape_latex(c.header()) for c in columns]
    lines.append(" & ".join(titles) + r" \\")
    return lines


def _body_rows(table: Table) -> list[str]:
    """The rows, each section opened by its title across the table (space above, not a rule)."""
    lines: list[str] = []
    for i, row in enumerate(table.rows):
        if table.sections and (i == 0 or table.sections[i] != table.sections[i - 1]):
            title = escape_latex(table.sections[i])
            span = rf"\multicolumn{{{len(table.columns)}}}{{@{{}}l@{{}}}}{{\textit{{{title}}}}} \\"
            lines += [*([r"\addlinespace"] if i else []), span]
        cells = (_latex_cell(v, c) for v, c in zip(row, table.columns, strict=True))
        lines.append(" & ".join(cells) + r" \\")
    return lines


# The boxes a table is set in before its float is chosen (allocated once per document): as
# given, and with its headers stacked and its columns closer (a narrow table is only that).
_BOX = r"\mcscopetable"
_STACKED = r"\mcscopetablestacked"


def _tabular(table: Table, box: str, stacked: bool) -> list[str]:
    """The tabular set into `box` (LR mode: its natural width, measured before floating)."""
    spec = "".join("r" if c.numeric else "l" for c in table.columns)
    return [
        rf"\sbox{{{box}}}{{\small",
        *([rf"\setlength{{\tabcolsep}}{{{NARROW_TABCOLSEP}}}"] if stacked else []),
        rf"\begin{{tabular}}{{@{{}}{spec}@{{}}}}",
        r"\toprule",
        *_header_rows(table.columns, stacked),
        r"\midrule",
        *_body_rows(table),
        r"\bottomrule",
        r"\end{tabular}}",
    ]


def _if_wider(box: str, width: str, then: list[str], otherwise: list[str]) -> list[str]:
    return [rf"\ifdim\wd{box}>{width}", *then, r"\else", *otherwise, r"\fi"]


# A float never breaks across pages: a longer table is set in parts of ROWS_PER_PART rows
# (a page each in \small), at most MAX_PARTS of them; the rows past those are left out of the
# LaTeX, which says so under the last part (the CSV has every row).
ROWS_PER_PART = 40
MAX_PARTS = 10


def to_latex(table: Table) -> str:
    """The table as LaTeX: one float (see `_float_latex`), or a long table's parts, each its
    own float with the caption numbering it, between page breaks (so floats do not pile up)."""
    n = len(table.rows)
    if n <= ROWS_PER_PART:
        return _float_latex(table)
    shown = min(n, ROWS_PER_PART * MAX_PARTS)
    starts = range(0, shown, ROWS_PER_PART)
    parts = []
    for k, start in enumerate(starts, 1):
        end = min(start + ROWS_PER_PART, shown)
        last = k == len(starts)
        notes = table.notes if last else []
        if last and shown < n:
            notes = [
                *notes,
                f"Rows {shown + 1:,}–{n:,} of {n:,} are left out here; the table's CSV has "
                "every row.",
            ]
        part = replace(
            table,
            rows=table.rows[start:end],
            sections=table.sections[start:end],
            caption=f"{table.caption} (part {k} of {len(starts)}: rows {start + 1:,}–{end:,} "
            f"of {n:,})",
            label=table.label if k == 1 else f"{table.label}-part-{k}",
            notes=notes,
        )
        parts.append(_float_latex(part))
    return "\n".join([r"\clearpage", *parts, r"\clearpage", ""])


def _float_latex(table: Table) -> str:
    r"""A booktabs table that fits its page, whatever paper it is pasted into: LaTeX sets it in a
    box as given and with stacked headers, measures both, and floats the first that fits:
    as given in the column (`table`), stacked in the column, as given across both columns of a
    two-column paper (`table*`), stacked across them; only a table wider than the text even
    stacked is scaled down to the text width, so none runs off the page. `wide` skips the
    column; `narrow` is stacked only. Needs \usepackage{booktabs} and \usepackage{graphicx}."""
    notes = [rf"\par\smallskip{{\footnotesize {escape_latex(n)}}}" for n in table.notes]

    def float_(env: str, box: str, shrink_to: str | None = None) -> list[str]:
        body = rf"\usebox{{{box}}}"
        if shrink_to:
            body = rf"\resizebox{{{shrink_to}}}{{!}}{{{body}}}"
        return [
            rf"\begin{{{env}}}[htbp]",
            r"\centering",
            r"\small",
            rf"\caption{{{escape_latex(table.caption)}}}",
            rf"\label{{{table.label}}}",
            body,
            *notes,
            rf"\end{{{env}}}",
        ]

    boxes = [_STACKED] if table.narrow else [_BOX, _STACKED]
    # From the last resort up: each choice wraps the ones tried after it.
    choice = float_("table*", boxes[-1], r"\textwidth")
    for box in reversed(boxes):
        choice = _if_wider(box, r"\textwidth", choice, float_("table*", box))
    if not table.wide:
        for box in reversed(boxes):
            choice = _if_wider(box, r"\columnwidth", choice, float_("table", box))
    return "\n".join(
        [
            *(rf"\ifdefined{b}\else\newsavebox{{{b}}}\fi" for b in boxes),
            *(line for b in boxes for line in _tabular(table, b, stacked=b == _STACKED)),
            *choice,
            "",
        ]
    )


def latex_label(*parts: str) -> str:
    """A \\label key from its parts: "tab:workers-x-clients-summary" (letters, digits, -, :)."""
    return ":".join(re.sub(r"[^a-z0-9]+", "-", p.lower()).strip("-") for p in parts)
