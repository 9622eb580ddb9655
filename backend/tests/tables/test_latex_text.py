"""escape_latex: every character it lets through compiles with the reports' preamble (real
pdflatex), and everything else becomes a placeholder naming it."""

import struct
import subprocess
import zlib
from datetime import date
from pathlib import Path

from backend.report.latex import FigureItem, Paragraph, Section, main_tex
from backend.tables.latex_text import PRINTABLE, escape_latex


def _one_pixel_png() -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0)  # 1 x 1, 8-bit grey
    pixels = zlib.compress(b"\x00\xff")
    chunks = chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    return b"\x89PNG\r\n\x1a\n" + chunks


def test_every_printable_character_compiles_in_titles_captions_and_text(tmp_path: Path) -> None:
    every = "".join(sorted(PRINTABLE - {"\n"}))
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


def test_unprintable_runs_become_one_placeholder_each() -> None:
    assert escape_latex("a 中文 b 😀") == "a [U+4E2D U+6587] b [U+1F600]"
    assert escape_latex("x\x07y") == "x[U+0007]y"
    assert escape_latex("一二三四五六") == "[U+4E00 U+4E8C U+4E09 U+56DB +2 more]"
    assert escape_latex("50% & µs") == r"50\% \& $\mu$s"


def test_line_breaks_are_kept_only_where_paragraphs_are_allowed() -> None:
    text = "first\r\n\r\nsecond\tthird"
    assert escape_latex(text) == "first  second third"
    assert escape_latex(text, paragraphs=True) == "first\n\nsecond third"
