"""Any text as LaTeX that compiles with the reports' preamble: pdflatex for Latin text,
LuaLaTeX with its fallback fonts for the rest (backend.domain.printing decides which).

Characters are written as they are (UTF-8); only LaTeX's specials are escaped. A character
no report font has (backend.domain.printing.unprintable) is refused where a report's own
texts are written (backend.schemas.report) and where the report is built; should one still
reach this module (a table's .tex export), it becomes a visible placeholder naming its code
point ("[U+E000]") so the table compiles and the reader sees what was there.
"""

from __future__ import annotations

import re
import unicodedata

from backend.domain.printing import printable, printed_form

_LATEX_SPECIALS = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "µ": r"$\mu$",
    "±": r"$\pm$",
    "×": r"$\times$",
    # textcomp's arrow reads back from the PDF as a control character; the math one as "→".
    "→": r"$\rightarrow$",
    "≥": r"$\geq$",
}
_PLACEHOLDER_CODES = 4  # code points named in one placeholder; a longer run says how many more

# TeX breaks a line only at spaces and where its (English) patterns hyphenate; a long compound
# word, an accented one above all, overflows the page instead. A word longer than LONG_WORD
# characters gets a discretionary hyphen after every BREAK_EVERY of them (at least
# BREAK_EVERY left after the last), so it breaks wherever a line ends.
LONG_WORD = 24
BREAK_EVERY = 8
_LONG_WORD = re.compile(rf"\S{{{LONG_WORD + 1},}}")
# Chinese and Japanese put no spaces between words: a line may break between any two wide
# characters, except before closing punctuation and small kana or after opening punctuation
# (the common kinsoku rules), and without a hyphen.
CJK_BREAK = r"\hspace{0pt}"
_NO_BREAK_BEFORE = frozenset(
    "、。，．・：；？！ー―…‥」』）〕］｝〉》】〙〗ゝゞヽヾ々〻"
    "ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ"
)
_NO_BREAK_AFTER = frozenset("「『（〔［｛〈《【〘〖")


def _wide(c: str) -> bool:
    return unicodedata.east_asian_width(c) in ("W", "F")


def _cjk_break(text: str, i: int) -> bool:
    """Whether a line may break before text[i], between two wide characters."""
    before, here = text[i - 1], text[i]
    return (
        _wide(before)
        and _wide(here)
        and here not in _NO_BREAK_BEFORE
        and before not in _NO_BREAK_AFTER
    )


def _break_points(text: str) -> set[int]:
    """Indexes of `text` before which a long word may break with a hyphen (never inside
    CJK text, which breaks without one)."""
    return {
        i
        for m in _LONG_WORD.finditer(text)
        for i in range(m.start() + BREAK_EVERY, m.end() - BREAK_EVERY + 1, BREAK_EVERY)
        # TeX already breaks after an explicit hyphen; a second one there would print "--".
        if text[i - 1] != "-" and not _wide(text[i - 1]) and not _wide(text[i])
    }


def _placeholder(run: list[str]) -> str:
    codes = " ".join(f"U+{ord(c):04X}" for c in run[:_PLACEHOLDER_CODES])
    more = len(run) - _PLACEHOLDER_CODES
    return f"[{codes}{f' +{more} more' if more > 0 else ''}]"


def escape_latex(text: str, *, paragraphs: bool = False) -> str:
    """Text safe inside a LaTeX document; µ, ± and × in math mode (no package needed); long
    words breakable, CJK breakable between characters; each run of characters no font has as
    one placeholder naming them. Line breaks are kept (a blank line starts a paragraph) only
    with `paragraphs`: a title, caption or table cell is one paragraph, and a blank line
    inside one stops LaTeX."""
    text = printed_form(text.replace("\r\n", "\n").replace("\r", "\n").replace("\t", " "))
    if not paragraphs:
        text = " ".join(text.split("\n"))
    breaks = _break_points(text)
    out: list[str] = []
    run: list[str] = []
    for i, c in enumerate(text):
        if printable(c):
            if run:
                out.append(_placeholder(run))
                run = []
            if i in breaks:
                out.append(r"\-")
            elif i > 0 and _cjk_break(text, i):
                out.append(CJK_BREAK)
            out.append(_LATEX_SPECIALS.get(c, c))
        else:
            run.append(c)
    if run:
        out.append(_placeholder(run))
    return "".join(out)
