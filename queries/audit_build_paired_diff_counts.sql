-- Paired score differences (current minus previous) per unit and exact difference, over the
-- pairs audit_build_overlap counts: the key (source_id, else instance_id; target_language, unit,
-- paragraph_id), NULL paragraph_id one value, held by exactly one row in each version (a key scored more
-- than once is not paired, so no row is multiplied). Built once per pair of audit files by
-- record_tables.compare_views (`audit_paired_diffs`). The difference is taken in DECIMAL, each score
-- rounded to 9 decimal places, so equal decimal differences (0.3 - 0.2 and 0.7 - 0.6) are one
-- value, tied as Wilcoxon's ranks need; DOUBLE subtraction would make them distinct floats.
-- Params: none.
WITH cur AS (SELECT source_id IS NULL AS by_instance, coalesce(source_id, instance_id) AS unit_id,
                    target_language, unit, paragraph_id, count(*) AS k, any_value(score) AS score
             FROM audit WHERE coalesce(source_id, instance_id) IS NOT NULL
             GROUP BY by_instance, unit_id, target_language, unit, paragraph_id),
     prev AS (SELECT source_id IS NULL AS by_instance, coalesce(source_id, instance_id) AS unit_id,
                     target_language, unit, paragraph_id, count(*) AS k, any_value(score) AS score
              FROM audit_previous WHERE coalesce(source_id, instance_id) IS NOT NULL
              GROUP BY by_instance, unit_id, target_language, unit, paragraph_id)
SELECT c.unit, (c.score::DECIMAL(38, 9) - p.score::DECIMAL(38, 9))::DOUBLE AS diff, count(*) AS n
FROM cur AS c
JOIN prev AS p
  ON p.by_instance = c.by_instance AND p.unit_id = c.unit_id AND p.target_language = c.target_language
 AND p.unit = c.unit AND p.paragraph_id IS NOT DISTINCT FROM c.paragraph_id
WHERE c.k = 1 AND p.k = 1
GROUP BY ALL
ORDER BY c.unit, diff
