"""escape_latex: every character pdflatex prints compiles with the reports' preamble (real
pdflatex), every other one LuaLaTeX's fonts have is written as it is, CJK text breaks between
its characters, and a character no font has becomes a placeholder naming it."""

import struct
import subprocess
import zlib
from datetime import date
from pathlib import Path

from backend.domain.printing import (
    PDFLATEX_PRINTABLE,
    lualatex_printable,
    needs_lualatex,
    unprintable,
)
from backend.report.latex import FigureItem, Paragraph, Section, engine_of, main_tex
from backend.tables.latex_text import CJK_BREAK, escape_latex


def _one_pixel_png() -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0)  # 1 x 1, 8-bit grey
    pixels = zlib.compress(b"\x00\xff")
    chunks = chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    return b"\x89PNG\r\n\x1a\n" + chunks


def test_every_printable_character_compiles_in_titles_captions_and_text(tmp_path: Path) -> None:
    every = "".join(sorted(PDFLATEX_PRINTABLE - {"\n"}))
    (tmp_path / "f.png").write_bytes(_one_pixel_png())
    doc = main_tex(
        every,
        [
            Section(every, [Paragraph(every + "\n\n" + every)]),
            Section("Figure", [FigureItem("f.png", every, "fig:f")]),
        ],
        date(2026, 11, 26),
    )
    (tmp_path / "main.tex").write_text(doc, encoding="utf-8")
    done = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "main.tex"],
        cwd=tmp_path,
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout[-3000:].decode("utf-8", "replace")


def test_a_lualatex_bundle_prints_everything_pdflatex_prints() -> None:
    # A report with one CJK word is compiled by LuaLaTeX: its Latin text must not lose a
    # character pdflatex had (the fonts of backend.domain.printing cover them all).
    assert PDFLATEX_PRINTABLE - {"\n"} <= lualatex_printable()


def test_text_beyond_latin_is_written_as_it_is_and_needs_lualatex() -> None:
    assert escape_latex("a 中 b 😀 α") == "a 中 b 😀 α"
    assert needs_lualatex("a 中 b") and needs_lualatex("α") and needs_lualatex("🚀")
    assert not needs_lualatex("Durchsatz wächst — 50% ± 3 µs\n")
    # Composed first ("e" + combining acute is "é", which pdflatex has); the emoji
    # presentation selector and joiners print nothing and are dropped.
    assert escape_latex("cafe\u0301 ❤\ufe0f") == "café ❤"
    assert not needs_lualatex("cafe\u0301")
    doc = main_tex("中", [], date(2026, 11, 26), "lualatex")
    assert engine_of(doc) == "lualatex" and engine_of(main_tex("x", [], date(2026, 1, 1))) == (
        "pdflatex"
    )


def test_characters_no_font_has_are_named() -> None:
    # An unassigned code point, an emoji newer than the emoji font (Unicode 13), a control
    # character, a script none of the fonts has (Thai): each named once.
    text = "ok 中 \u0378 \U0001f972 \x07 \u0e01 \u0378"
    assert unprintable(text) == ["\u0378", "\U0001f972", "\x07", "\u0e01"]
    assert escape_latex("x\x07y") == "x[U+0007]y"
    assert escape_latex("\u0e01\u0e02\u0e03\u0e04\u0e05\u0e06") == (
        "[U+0E01 U+0E02 U+0E03 U+0E04 +2 more]"
    )
    assert escape_latex("50% & µs") == r"50\% \& $\mu$s"


def test_cjk_text_breaks_between_characters_but_not_before_closing_punctuation() -> None:
    b = CJK_BREAK
    assert escape_latex("仮説：「飽和」。ok") == f"仮{b}説：{b}「飽{b}和」。ok"
    # A long CJK run gets no hyphens (the long-word rule is for spaced scripts).
    assert r"\-" not in escape_latex("日本語" * 20)


def test_line_breaks_are_kept_only_where_paragraphs_are_allowed() -> None:
    text = "first\r\n\r\nsecond\tthird"
    assert escape_latex(text) == "first  second third"
    assert escape_latex(text, paragraphs=True) == "first\n\nsecond third"
