"""Settings, the database engine and session, tokens, exposure checks and other process-wide
infrastructure."""
