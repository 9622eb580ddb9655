"""Reports: the bundle (figures, tables, raw data, main.tex) and its LaTeX document."""
