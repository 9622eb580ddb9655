"""`python -m infra.azure`: the command-line front end of the Azure engine (backend/azure/),
plus what only the CLI needs (the lab file `up` writes and `register`'s POST to the API):
see infra/README.md."""
