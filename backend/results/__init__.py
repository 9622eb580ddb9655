"""The results core: the metric table, the one aggregation and the results service."""
