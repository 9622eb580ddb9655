"""main.tex of a report bundle: a preamble of stock packages and \\input-ed parts.

Latin text compiles with pdflatex and the packages of a minimal TeX installation (Debian
texlive-latex-base, -latex-recommended, -fonts-recommended) in Times, the face the figures are
set in. Text pdflatex cannot print (CJK, emoji, Greek: backend.domain.printing) makes the
bundle a LuaLaTeX one: main.tex's first line names the engine (the magic comment TeX editors
read, and compile_bundle too), and the same preamble then loads fontspec with the fallback
fonts instead of the T1 encoding.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Literal

from backend.domain.printing import FALLBACK_FONTS, MAIN_FONT
from backend.tables.latex_text import escape_latex

Engine = Literal["pdflatex", "lualatex"]
ENGINE_LINE = "% !TEX program = "

# Under LuaLaTeX, every character Termes lacks comes from the first fallback font that has it.
_LUALATEX_FONTS = "\n".join(
    [
        r"\usepackage{fontspec}",
        r'\directlua{luaotfload.add_fallback("mcscope", {'
        + ", ".join(f'"{name}:mode=harf;"' for name in FALLBACK_FONTS)
        + "})}",
        rf"\setmainfont{{{MAIN_FONT}}}[RawFeature={{fallback=mcscope}}]",
    ]
)
PREAMBLE = (
    r"""\documentclass[10pt]{article}
\usepackage{iftex}
% Times: mathptmx for the mathematics (and, under pdflatex, the text), Termes for LuaLaTeX's.
\ifluatex
\usepackage{mathptmx}
"""
    + _LUALATEX_FONTS
    + r"""
\else
\usepackage[T1]{fontenc}
\usepackage{mathptmx}
\fi
\usepackage[margin=1in]{geometry}
\usepackage{graphicx}
\usepackage{booktabs}
\usepackage[hidelinks]{hyperref}
% A line that cannot be set within the normal tolerance gets up to 3em of extra space between
% its words instead of running into the margin (long words carry hyphens: escape_latex).
\setlength{\emergencystretch}{3em}
"""
)


def engine_of(main: str) -> Engine:
    """The engine main.tex's first line names (pdflatex when it names none)."""
    first = main.split("\n", 1)[0]
    return "lualatex" if first == ENGINE_LINE + "lualatex" else "pdflatex"


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


def main_tex(title: str, sections: list[Section], day: date, engine: Engine = "pdflatex") -> str:
    """The whole document for `engine`: title and date (`day`, e.g. the export's), then each
    section's items in order."""
    lines = [
        ENGINE_LINE + engine,
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
