"""Request and response shapes of the HTTP API (Pydantic v2)."""
