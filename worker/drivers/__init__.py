"""Fabric drivers: one Host abstraction over SSH and a class per remote tool."""
