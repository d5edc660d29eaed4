-- How many audit rows match the Review filters.
-- Params: $languages, $units, $origins, $run_groups (empty list = all), $min_score, $max_score,
-- $q (plain text searched in explanations, case-insensitive; '' = no search).
SELECT count(*) AS rows
FROM audit
WHERE (len($languages) = 0 OR list_contains($languages, target_language))
  AND (len($units) = 0 OR list_contains($units, unit))
  AND score BETWEEN $min_score AND $max_score
  AND (len($origins) = 0 OR list_contains($origins, coalesce(score_origin, 'not recorded')))
  AND (len($run_groups) = 0 OR list_contains($run_groups, coalesce(run_group, 'not recorded')))
  AND ($q = '' OR contains(lower(coalesce(judge_explanation, '')), lower($q)))
