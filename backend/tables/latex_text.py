"""Any text as LaTeX that pdflatex compiles with the reports' preamble (T1 fonts, textcomp).

pdflatex reads UTF-8, but stops with an error at a character no loaded encoding defines: CJK,
emoji, Greek or Cyrillic letters, and control characters. Those are replaced by a visible
placeholder naming their code points ("[U+4E2D U+6587]"), so a report compiles whatever its
notes or names hold and the reader still sees what was there. Typesetting CJK would need
texlive-lang-cjk and its fonts, and no pdflatex font has emoji. Control characters are refused
where a report's own texts are written (backend.schemas.report).
"""

from __future__ import annotations

import re

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

# The code points LaTeX's utf8 input defines for the T1 and TS1 (textcomp) encodings, read from
# texlive's t1enc.dfu and ts1enc.dfu (2022), plus the kernel's ellipsis; every one compiles
# with the reports' preamble (backend/tests/tables/test_latex_text.py compiles them all).
_ENCODED_RANGES = (
    (0x00A0, 0x00B7), (0x00B9, 0x0125), (0x0128, 0x0137), (0x0139, 0x013E), (0x0141, 0x0148),
    (0x014A, 0x0165), (0x0168, 0x017E), (0x0192, 0x0192), (0x01C4, 0x01D4), (0x01E2, 0x01E3),
    (0x01E6, 0x01EB), (0x01F0, 0x01F0), (0x01F4, 0x01F5), (0x0218, 0x021B), (0x0232, 0x0233),
    (0x0237, 0x0237), (0x02C7, 0x02C7), (0x02D8, 0x02D9), (0x02DB, 0x02DB), (0x02DD, 0x02DD),
    (0x0E3F, 0x0E3F), (0x1E02, 0x1E03), (0x1E0D, 0x1E0D), (0x1E1E, 0x1E21), (0x1E25, 0x1E25),
    (0x1E30, 0x1E31), (0x1E37, 0x1E37), (0x1E43, 0x1E43), (0x1E45, 0x1E45), (0x1E47, 0x1E47),
    (0x1E5B, 0x1E5B), (0x1E63, 0x1E63), (0x1E6D, 0x1E6D), (0x1E8E, 0x1E91), (0x1E9E, 0x1E9E),
    (0x1EF2, 0x1EF3), (0x200C, 0x200C), (0x2010, 0x2016), (0x2018, 0x201A), (0x201C, 0x201E),
    (0x2020, 0x2022), (0x2026, 0x2026), (0x2030, 0x2031), (0x2039, 0x203B), (0x203D, 0x203D),
    (0x2044, 0x2044), (0x204E, 0x204E), (0x2052, 0x2052), (0x20A1, 0x20A1), (0x20A4, 0x20A4),
    (0x20A6, 0x20A6), (0x20A9, 0x20A9), (0x20AB, 0x20AC), (0x20B1, 0x20B1), (0x2103, 0x2103),
    (0x2116, 0x2117), (0x211E, 0x211E), (0x2120, 0x2120), (0x2122, 0x2122), (0x2126, 0x2127),
    (0x212E, 0x212E), (0x2190, 0x2193), (0x2329, 0x232A), (0x2422, 0x2423), (0x25E6, 0x25E6),
    (0x25EF, 0x25EF), (0x266A, 0x266A), (0x27E8, 0x27E9), (0x3008, 0x3009), (0xFB00, 0xFB06),
)  # fmt: skip
PRINTABLE = frozenset(
    [chr(c) for c in range(0x20, 0x7F)]
    + ["\n"]
    + list(_LATEX_SPECIALS)
    + [chr(c) for lo, hi in _ENCODED_RANGES for c in range(lo, hi + 1)]
)
_PLACEHOLDER_CODES = 4  # code points named in one placeholder; a longer run says how many more

# TeX breaks a line only at spaces and where its (English) patterns hyphenate; a long compound
# word, an accented one above all, overflows the page instead. A word longer than LONG_WORD
# characters gets a discretionary hyphen after every BREAK_EVERY of them (at least
# BREAK_EVERY left after the last), so it breaks wherever a line ends.
LONG_WORD = 24
BREAK_EVERY = 8
_LONG_WORD = re.compile(rf"\S{{{LONG_WORD + 1},}}")


def _break_points(text: str) -> set[int]:
    """Indexes of `text` before which a long word may break."""
    return {
        i
        for m in _LONG_WORD.finditer(text)
        for i in range(m.start() + BREAK_EVERY, m.end() - BREAK_EVERY + 1, BREAK_EVERY)
        # TeX already breaks after an explicit hyphen; a second one there would print "--".
        if text[i - 1] != "-"
    }


def _placeholder(run: list[str]) -> str:
    codes = " ".join(f"U+{ord(c):04X}" for c in run[:_PLACEHOLDER_CODES])
    more = len(run) - _PLACEHOLDER_CODES
    return f"[{codes}{f' +{more} more' if more > 0 else ''}]"


def escape_latex(text: str, *, paragraphs: bool = False) -> str:
    """Text safe inside a LaTeX document; µ, ± and × in math mode (no package needed); each
    run of other unprintable characters as one placeholder naming them; long words breakable.
    Line breaks are kept (a blank line starts a paragraph) only with `paragraphs`: a title,
    caption or table cell is one paragraph, and a blank line inside one stops pdflatex."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\t", " ")
    if not paragraphs:
        text = " ".join(text.split("\n"))
    breaks = _break_points(text)
    out: list[str] = []
    run: list[str] = []
    for i, c in enumerate(text):
        if c in PRINTABLE:
            if run:
                out.append(_placeholder(run))
                run = []
            if i in breaks:
                out.append(r"\-")
            out.append(_LATEX_SPECIALS.get(c, c))
        else:
            run.append(c)
    if run:
        out.append(_placeholder(run))
    return "".join(out)
