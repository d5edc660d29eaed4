"""Human review of judged rows: storage, Hub sync and judge-vs-reviewer statistics."""
