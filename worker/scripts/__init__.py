"""Command-line scripts of the worker (seeding fixture runs for tests and demos)."""
