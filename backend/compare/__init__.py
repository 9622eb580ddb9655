"""Comparing experiments and configurations: reading repetition statistics (source.py), Welch
intervals and bands (intervals.py), difference rows against a base (differences.py), grouping."""
