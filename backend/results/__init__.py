"""The results core: the metric table, the one aggregation, the read path and the results services
(table, histograms, series, analyses over per_configuration.py) that answer with schema objects,
all over one ResultsSelection."""
