-- How many audit rows match the Review filters when there is no text search, summed from the
-- per-score counts built once per revision (audit_counts) instead of scanning the rows.
-- Params: $languages, $units, $origins, $run_groups (empty list = all), $min_score, $max_score.
SELECT coalesce(sum(n), 0)::BIGINT AS rows
FROM audit_counts
WHERE (len($languages) = 0 OR list_contains($languages, target_language))
  AND (len($units) = 0 OR list_contains($units, unit))
  AND score BETWEEN $min_score AND $max_score
  AND (len($origins) = 0 OR list_contains($origins, coalesce(score_origin, 'not recorded')))
  AND (len($run_groups) = 0 OR list_contains($run_groups, coalesce(run_group, 'not recorded')))
