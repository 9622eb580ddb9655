"""Importing earlier runs from tool outputs (docs/user-guide/import.md)."""
