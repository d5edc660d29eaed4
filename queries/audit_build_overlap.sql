-- Per unit: rows of each version and keys (source_id, target_language, unit) present in both,
-- counted once per pair of audit files by catalog.compare_views (`audit_version_overlap`). Params: none. Rows without a source_id cannot overlap.
WITH cur AS (SELECT DISTINCT source_id, target_language, unit FROM audit WHERE source_id IS NOT NULL),
     prev AS (SELECT DISTINCT source_id, target_language, unit FROM audit_previous
              WHERE source_id IS NOT NULL),
     units AS (SELECT unit, count(*) AS n_current, NULL::BIGINT AS n_previous FROM audit GROUP BY unit
               UNION ALL
               SELECT unit, NULL, count(*) FROM audit_previous GROUP BY unit)
SELECT u.unit, max(u.n_current) AS n_current, max(u.n_previous) AS n_previous,
       (SELECT count(*) FROM cur JOIN prev USING (source_id, target_language, unit)
        WHERE cur.unit = u.unit) AS overlap
FROM units u
GROUP BY u.unit
ORDER BY u.unit
