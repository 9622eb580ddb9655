"""Rehearsal testbeds: the worker builds and tears down an Azure plan as namespace hosts."""
