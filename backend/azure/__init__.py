"""Azure testbeds as the API sees them: plans shown before creation."""
