"""Azure labs on the worker side: creating one and registering it as a testbed."""
