"""When a host counts as saturated: its CPU busy past this share of its cores (the run page's
words and the Results tab's machines table both say it by this one rule)."""

SATURATED_SHARE = 0.9
