"""The report prints its items in the order the user set: a figure that does not fit the rest
of its page is no longer overtaken by the table after it (separate float queues in LaTeX)."""

import subprocess
from datetime import date
from pathlib import Path

from backend.report.latex import FigureItem, Paragraph, Section, TableItem, main_tex
from backend.tests.api.test_tables import compile_latex

# A 2.9 x 6 in page: a figure taller than what is left of a page that began with text.
TALL = r"""\pdfpagewidth=3in \pdfpageheight=6.1in \hoffset=-1in \voffset=-1in
\documentclass{article}\pagestyle{empty}\setlength{\parindent}{0pt}
\begin{document}\rule{2.9in}{6in}\end{document}
"""
SMALL_TABLE = r"""\begin{table}[htbp]\centering\caption{SMALL}
\begin{tabular}{l}x\\\end{tabular}\end{table}
"""


def test_a_tall_figure_is_not_overtaken_by_the_next_table(tmp_path: Path) -> None:
    (tmp_path / "tall.tex").write_text(TALL)
    made = compile_latex(tmp_path, "tall.tex")
    assert made.returncode == 0, made.stdout[-2000:]
    (tmp_path / "small.tex").write_text(SMALL_TABLE)
    words = "The stable window excludes warm-up and cool-down seconds of every run. " * 40
    section = Section(
        "Results",
        [
            Paragraph(words),
            FigureItem("tall.pdf", "TALL", "fig:tall"),
            TableItem("small.tex"),
            Paragraph("After both."),
        ],
    )
    (tmp_path / "main.tex").write_text(main_tex("Order", [section], date(2026, 11, 28)))
    done = compile_latex(tmp_path)
    assert done.returncode == 0, done.stdout[-2000:]
    text = subprocess.run(
        ["pdftotext", str(tmp_path / "main.pdf"), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert text.index("Figure 1: TALL") < text.index("Table 1: SMALL")
