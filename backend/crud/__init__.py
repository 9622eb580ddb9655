"""Every database query of the backend: keyword-only functions per entity over a Session, raising
no HTTP errors."""
