-- Per unit: rows of each version, pairs, and pairing keys scored more than once in a version.
-- The pairing key is (paired_on, unit_id, target_language, unit, paragraph_id), drift_pairs' key:
-- unit_id is the row's source_id, else its instance_id (paired_on names which; the two never pair
-- with each other), a NULL paragraph_id being one value; a pair is a key held by exactly one row
-- in each version. A key held by several rows of a version is not paired
-- (audit_version_duplicate_keys names it); rows with neither id cannot pair. audit_build_paired_diff_counts pairs the same way. Built once per
-- pair of audit files by record_tables.compare_views (`audit_version_overlap`). Params: none.
WITH cur AS (SELECT source_id IS NULL AS by_instance, coalesce(source_id, instance_id) AS unit_id,
                    target_language, unit, paragraph_id, count(*) AS k
             FROM audit WHERE coalesce(source_id, instance_id) IS NOT NULL GROUP BY ALL),
     prev AS (SELECT source_id IS NULL AS by_instance, coalesce(source_id, instance_id) AS unit_id,
                     target_language, unit, paragraph_id, count(*) AS k
              FROM audit_previous WHERE coalesce(source_id, instance_id) IS NOT NULL GROUP BY ALL),
     pairs AS (SELECT c.unit FROM cur AS c
               JOIN prev AS p
                 ON p.by_instance = c.by_instance AND p.unit_id = c.unit_id AND p.target_language = c.target_language
                AND p.unit = c.unit AND p.paragraph_id IS NOT DISTINCT FROM c.paragraph_id
               WHERE c.k = 1 AND p.k = 1),
     units AS (SELECT unit, count(*) AS n_current, NULL::BIGINT AS n_previous FROM audit GROUP BY unit
               UNION ALL
               SELECT unit, NULL, count(*) FROM audit_previous GROUP BY unit)
SELECT u.unit, max(u.n_current) AS n_current, max(u.n_previous) AS n_previous,
       (SELECT count(*) FROM pairs WHERE pairs.unit = u.unit) AS overlap,
       (SELECT count(*) FROM cur WHERE cur.k > 1 AND cur.unit = u.unit) AS duplicate_keys_current,
       (SELECT count(*) FROM prev WHERE prev.k > 1 AND prev.unit = u.unit)
           AS duplicate_keys_previous
FROM units u
GROUP BY u.unit
ORDER BY u.unit
