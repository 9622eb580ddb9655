"""Report-ready figures, defined once on the server (see catalog.py for the list): a data function
over the services and a Plotly build function each."""
