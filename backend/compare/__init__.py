"""Comparing experiments and configurations: reading repetition statistics, pairing, grouping."""
