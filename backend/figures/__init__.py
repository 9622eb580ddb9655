"""Report-ready figures, defined once on the server (see catalog.py for the list)."""
