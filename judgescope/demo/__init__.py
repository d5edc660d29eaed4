"""Deterministic generators of the embedded synthetic demo (data/demo/)."""
