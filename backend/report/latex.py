"""main.tex of a report bundle: a preamble of stock packages and \\input-ed parts.

The document uses only packages of a minimal TeX installation (Debian texlive-latex-base,
-latex-recommended, -fonts-recommended) and Times text, the face the figures are set in.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from backend.tables.latex_text import escape_latex

PREAMBLE = r"""\documentclass[10pt]{article}
\usepackage[T1]{fontenc}
\usepackage{mathptmx}
\usepackage[margin=1in]{geometry}
\usepackage{graphicx}
\usepackage{booktabs}
\usepackage[hidelinks]{hyperref}
% A line that cannot be set within the normal tolerance gets up to 3em of extra space between
% its words instead of running into the margin (long words carry hyphens: escape_latex).
\setlength{\emergencystretch}{3em}
"""


@dataclass(frozen=True)
class FigureItem:
    """A figure file (path inside the bundle) with its caption and \\label."""

    path: str
    caption: str
    label: str
    explanation: str = ""


@dataclass(frozen=True)
class TableItem:
    """A .tex table file to \\input (it carries its own caption and label)."""

    path: str
    explanation: str = ""


@dataclass(frozen=True)
class Paragraph:
    text: str


Item = FigureItem | TableItem | Paragraph


@dataclass
class Section:
    title: str
    items: list[Item] = field(default_factory=list)


def _explanation(text: str) -> list[str]:
    return [escape_latex(text, paragraphs=True), ""] if text else [""]


# Figures and tables are floats in separate queues, so LaTeX may set a table before an earlier
# figure. Before each item, a float still waiting, or held for the foot of this page (where the
# next item, set here, would print above it), is put out first (a page break, only then), so
# the items print in the order the report lists them.
IN_ORDER = r"""\makeatletter
\newcommand{\mcscopeitemsinorder}{\par
  \ifx\@deferlist\@empty\ifx\@dbldeferlist\@empty\ifx\@botlist\@empty
  \else\clearpage\fi\else\clearpage\fi\else\clearpage\fi}
\makeatother"""


def _item(item: Item) -> list[str]:
    if isinstance(item, Paragraph):
        return [escape_latex(item.text, paragraphs=True), ""]
    if isinstance(item, TableItem):
        lines = [r"\mcscopeitemsinorder", rf"\input{{{item.path.removesuffix('.tex')}}}"]
        return lines + _explanation(item.explanation)
    lines = [
        r"\mcscopeitemsinorder",
        r"\begin{figure}[htbp]",
        r"\centering",
        # Natural size: the figure was drawn at its printed width, so 8 pt text stays 8 pt.
        rf"\includegraphics{{{item.path}}}",
        rf"\caption{{{escape_latex(item.caption)}}}",
        rf"\label{{{item.label}}}",
        r"\end{figure}",
    ]
    return lines + _explanation(item.explanation)


_MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def long_date(day: date) -> str:
    """A date as reports print it, the same in every locale: "23 November 2026"."""
    return f"{day.day} {_MONTHS[day.month - 1]} {day.year}"


def main_tex(title: str, sections: list[Section], day: date) -> str:
    """The whole document: title and date (`day`, e.g. the export's), then each section's
    items in order."""
    lines = [
        PREAMBLE,
        rf"\title{{{escape_latex(title)}}}",
        rf"\date{{{long_date(day)}}}",
        r"\begin{document}",
        IN_ORDER,
        r"\maketitle",
        "",
    ]
    for section in sections:
        lines += [rf"\section{{{escape_latex(section.title)}}}", ""]
        for item in section.items:
            lines += _item(item)
    lines += [r"\end{document}", ""]
    return "\n".join(lines)
