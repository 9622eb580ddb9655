"""The results core: the metric table, the one aggregation, the read path and the results
services (table, histograms, series, analyses) that answer with schema objects."""
