"""mcscope's server: the HTTP API at the edge (api/, main.py, ui.py, docs.py), the domain services
below it, the database underneath."""
