-- Hash-verified join of audit to snapshot, counted per target language × unit × class × hint,
-- plus one row (class 'unreferenced') counting snapshot rows that no audit row references.
-- Params: $key (join-key columns, a subset of verify.JOIN_COLUMNS; the others are ignored).
SELECT target_language, unit, class, hint, count(*) AS rows
FROM verify_classified($key)
GROUP BY ALL
UNION ALL
SELECT NULL, NULL, 'unreferenced', NULL, coalesce(sum(s.snapshot_rows), 0)
FROM verify_keyed_snapshot($key) s
WHERE NOT EXISTS (SELECT 1 FROM verify_keyed_audit($key) a
                  WHERE a.k1 IS NOT DISTINCT FROM s.k1 AND a.k2 IS NOT DISTINCT FROM s.k2
                    AND a.k3 IS NOT DISTINCT FROM s.k3 AND a.k4 IS NOT DISTINCT FROM s.k4
                    AND a.k5 IS NOT DISTINCT FROM s.k5)
ORDER BY class, target_language, unit, hint
