"""Report tables (CSV and LaTeX) of an experiment; table.py is the one table writer."""
