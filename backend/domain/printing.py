"""Which characters a report can print, and which TeX engine prints them.

pdflatex prints Latin text: the code points LaTeX's utf8 input defines for the T1 and TS1
(textcomp) encodings. Text with anything else (CJK, emoji, Greek, Cyrillic, symbols) is
compiled with LuaLaTeX: fontspec sets it in TeX Gyre Termes (the Times face pdflatex uses
through mathptmx) and luaotfload takes every character Termes lacks from the first fallback
font that has it. The fonts are Debian packages installed by infra/local/install-deps.sh:
fonts-texgyre (with texlive), fonts-dejavu-core, fonts-noto-cjk and fonts-symbola
(monochrome emoji and symbols: a colour emoji font is bitmaps, which LuaTeX cannot print).
A character no font has cannot be printed at all; the report's texts refuse it.
"""

from __future__ import annotations

import subprocess
import unicodedata
from functools import cache

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
# Set in math mode by backend.tables.latex_text.escape_latex, so pdflatex prints them too.
MATH_MODE = frozenset("µ±×→≥")
# Text is composed before it is printed (printed_form), so a character whose composed form
# differs (the ohm sign is the Greek capital omega) is not printed as itself.
PDFLATEX_PRINTABLE = frozenset(
    c
    for c in [chr(c) for c in range(0x20, 0x7F)]
    + ["\n"]
    + list(MATH_MODE)
    + [chr(c) for lo, hi in _ENCODED_RANGES for c in range(lo, hi + 1)]
    if unicodedata.normalize("NFC", c) == c
)
# Layout, not characters: kept as line breaks and spaces.
LAYOUT = frozenset("\n\r\t")
# Invisible by definition (variation selectors, zero-width space and joiner, word joiner, byte
# order mark): no font draws them and they change nothing in print, so they are dropped. An
# emoji typed with its presentation selector ("❤️") prints as its character.
INVISIBLE = frozenset(
    [chr(c) for c in (0x200B, 0x200D, 0x2060, 0xFEFF)]
    + [chr(c) for c in range(0xFE00, 0xFE10)]
    + [chr(c) for c in range(0xE0100, 0xE01F0)]
)

MAIN_FONT = "TeX Gyre Termes"
# In the order luaotfload tries them: Greek, Cyrillic and most symbols in a serif first, then
# Chinese, Japanese and Korean (one font has all three), then emoji.
FALLBACK_FONTS = ("DejaVu Serif", "Noto Serif CJK JP", "Symbola")


def printed_form(text: str) -> str:
    """`text` as it is printed: composed (NFC: "e" + U+0301 is "é", which pdflatex has) and
    without invisible characters."""
    return "".join(c for c in unicodedata.normalize("NFC", text) if c not in INVISIBLE)


def _charset(family: str) -> frozenset[str]:
    """The characters fontconfig says the installed `family` has; none when it is missing
    (fc-match then answers another family)."""
    try:
        done = subprocess.run(
            ["fc-match", "--format=%{family}\n%{charset}", family],
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return frozenset()
    families, _, ranges = done.stdout.partition("\n")
    if family not in families.split(","):
        return frozenset()
    chars: set[str] = set()
    for part in ranges.split():
        lo, _, hi = part.partition("-")
        chars.update(chr(c) for c in range(int(lo, 16), int(hi or lo, 16) + 1))
    return frozenset(chars)


@cache
def lualatex_printable() -> frozenset[str]:
    """Every character the LuaLaTeX fonts print (read once per process from fontconfig)."""
    return frozenset().union(*(_charset(f) for f in (MAIN_FONT, *FALLBACK_FONTS)))


def printable(c: str) -> bool:
    """Whether a report can print the character (with one engine or the other)."""
    return c in PDFLATEX_PRINTABLE or c in LAYOUT or c in lualatex_printable()


def unprintable(text: str) -> list[str]:
    """The characters of `text` no report font has, each once, in order of appearance."""
    return list(dict.fromkeys(c for c in printed_form(text) if not printable(c)))


def needs_lualatex(text: str) -> bool:
    """Whether `text` holds a character pdflatex cannot print."""
    if text.isascii():  # most of a large report's tables: skip composing them
        return False
    return any(c not in PDFLATEX_PRINTABLE and c not in LAYOUT for c in printed_form(text))


_NAMED = 4  # characters an error names; more are counted


def refusal(chars: list[str]) -> str:
    """Why a text with these unprintable characters is refused, naming them ("'🥲'
    (U+1F972)"; a control character by its code only)."""
    named = ", ".join(
        f"U+{ord(c):04X}" if unicodedata.category(c) == "Cc" else f"'{c}' (U+{ord(c):04X})"
        for c in chars[:_NAMED]
    )
    more = f" and {len(chars) - _NAMED} more" if len(chars) > _NAMED else ""
    return (
        f"must not contain characters that cannot be printed: {named}{more} (no font of "
        "the report has them)"
    )
