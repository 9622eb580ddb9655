"""Run lifecycle and execution."""
