-- Paired score differences (current minus previous) on units present in both versions, counted
-- per unit and exact difference: a join of both versions, done once per pair of audit files by
-- catalog.compare_views (`audit_paired_diffs`). Params: none.
SELECT a.unit, (a.score - p.score)::DOUBLE AS diff, count(*) AS n
FROM audit a
JOIN audit_previous p
  ON p.source_id = a.source_id AND p.target_language = a.target_language AND p.unit = a.unit
 AND p.paragraph_id IS NOT DISTINCT FROM a.paragraph_id
GROUP BY ALL
ORDER BY a.unit, diff
