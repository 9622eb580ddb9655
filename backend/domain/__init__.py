"""The domain's declarations and rules, free of HTTP and SQL: parameters, metrics, designs, labels,
memcached sizing, saturation, quality codes and the domain errors services raise (errors.py)."""
