-- Hash verification counted per target language × unit × class × hint, plus one row (class
-- 'unreferenced') counting snapshot rows that no audit row references. Read from the summary
-- built once per (audit file, snapshot file, join key): see verify_build_summary.sql.
SELECT target_language, unit, class, hint, rows
FROM hash_verification_summary
ORDER BY class, target_language, unit, hint
