-- Exact copies (candidate hash = source hash) per language and unit, read from the counts built
-- once per audit file (audit_build_exact_copy_counts.sql). Params: none.
-- `hashed` counts rows carrying both hashes; an exact copy needs no text to be found.
SELECT target_language, unit, n, hashed, exact_copies
FROM audit_exact_copy_summary
ORDER BY target_language, unit
