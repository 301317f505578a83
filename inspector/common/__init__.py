"""Dependency-free primitives every floor may use (the bottom floor: it imports nothing of ours)."""
