"""Pure analysis engine: statistics, queueing models and factorial designs (no DB, no HTTP)."""
