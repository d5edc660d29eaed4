-- How many audit rows match the Review filters.
-- Params: $languages, $units, $origins, $run_groups, $systems (empty list = all), $min_score, $max_score,
-- $q (plain text searched in explanations, case-insensitive; '' = no search).
SELECT count(*) AS rows
FROM audit
WHERE review_match($languages, $units, $origins, $run_groups, $systems, $min_score, $max_score,
                   target_language, unit, score, score_origin, run_group, system)
  AND ($q = '' OR contains(lower(coalesce(judge_explanation, '')), lower($q)))
