"""Celery tasks: thin wrappers over plain functions that tests call without a broker."""
