"""Hash-verified joins: which judged rows match their pinned source."""
