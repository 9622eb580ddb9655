"""Seeding stored runs through the worker's real path: tool outputs in the tools' own file
formats, shaped like a closed system and derived from real fixtures, then parsed, summarised
and stored by the worker's own code (worker/scripts/seed_fixture_runs.py drives it)."""
