"""Live progress: run state changes and per-second throughput published through Redis."""
