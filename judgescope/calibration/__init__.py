"""Judges against human ratings: panel, rules, agreement, bulk runs."""
