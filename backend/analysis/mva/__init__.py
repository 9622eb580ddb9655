"""Mean value analysis of closed queueing networks (exact, load-dependent, multi-class)."""
