"""The Celery worker: thin tasks over the run lifecycle, Fabric drivers and pure output parsers."""
