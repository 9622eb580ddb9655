"""The HTTP edge: routes, dependencies (the session, the user, the results selection), guards and
the one mapping of domain errors to HTTP statuses. Only this package, main.py, ui.py and docs.py
import FastAPI."""
