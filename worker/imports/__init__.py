"""Importing earlier runs from tool outputs (docs/guide/import.md)."""
