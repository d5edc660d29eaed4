-- Paired score differences (current minus previous) per unit and exact difference, over the
-- pairs audit_build_overlap counts: the key (source_id, target_language, unit, paragraph_id),
-- NULL paragraph_id one value, held by exactly one row in each version (a key scored more
-- than once is not paired, so no row is multiplied). Built once per pair of audit files by
-- catalog.compare_views (`audit_paired_diffs`). Params: none.
WITH cur AS (SELECT source_id, target_language, unit, paragraph_id, count(*) AS k,
                    any_value(score) AS score
             FROM audit WHERE source_id IS NOT NULL GROUP BY source_id, target_language, unit,
                                                              paragraph_id),
     prev AS (SELECT source_id, target_language, unit, paragraph_id, count(*) AS k,
                     any_value(score) AS score
              FROM audit_previous WHERE source_id IS NOT NULL GROUP BY source_id,
                                                                   target_language, unit,
                                                                   paragraph_id)
SELECT c.unit, (c.score - p.score)::DOUBLE AS diff, count(*) AS n
FROM cur AS c
JOIN prev AS p
  ON p.source_id = c.source_id AND p.target_language = c.target_language
 AND p.unit = c.unit AND p.paragraph_id IS NOT DISTINCT FROM c.paragraph_id
WHERE c.k = 1 AND p.k = 1
GROUP BY ALL
ORDER BY c.unit, diff
