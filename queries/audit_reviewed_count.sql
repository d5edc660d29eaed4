-- How many of the reviewed record ids match the Review filters (progress: reviewed k of n).
-- Params: $ids (reviewed judge_record_id list), $languages, $units, $origins, $run_groups,
-- $systems (empty list = all), $min_score, $max_score, $q (text searched in explanations; '' = none).
SELECT count(*) AS rows
FROM audit
WHERE list_contains($ids, judge_record_id)
  AND review_match($languages, $units, $origins, $run_groups, $systems, $min_score, $max_score,
                   target_language, unit, score, score_origin, run_group, system)
  AND ($q = '' OR contains(lower(coalesce(judge_explanation, '')), lower($q)))
