"""Benchmarks and maintenance scripts run by the Makefile (they drive the app over HTTP or seed a
database)."""
