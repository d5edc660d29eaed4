"""Translation-audit summaries, rows, charts and themes."""
