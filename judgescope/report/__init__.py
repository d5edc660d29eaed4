"""One self-contained HTML report per collection, and the check that it still matches the data.

Pure (no streamlit): the numbers come from the domain functions the pages and the CLI JSON use;
each is recorded with the query and function that made it (ledger.py) and embedded as a
machine-readable manifest, so `check-report` can recompute them (check.py)."""
