"""Quality flags of runs and configurations: one module per family of rules, pure (no DB).

`check.run_flags` applies every run rule to a run's evidence (`evidence.RunEvidence`, built
from the same per-second series the results use); `outliers.configuration_flags` compares a
configuration's repetitions. Thresholds are `Thresholds`, read from the settings.
"""
