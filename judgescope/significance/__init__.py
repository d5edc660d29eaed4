"""Paired significance tests between judges or methods, and their tables."""
