"""Ranking decisions, their tables and charts."""
