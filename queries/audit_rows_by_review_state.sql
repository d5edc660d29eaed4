-- Audit rows matching the Review filters among the given ids ($exclude = false) or outside
-- them ($exclude = true: "not yet reviewed"), lowest score first.
-- Params: $ids, $exclude, $limit, $languages, $units, $origins, $run_groups, $systems (empty list = all),
-- $min_score, $max_score, $q (text searched in explanations; '' = none).
-- A list cell holds an explanation's first 2,000 characters (the opened record reads it all).
SELECT judge_record_id, target_language, unit, score, score_origin, left(judge_explanation, 2000) AS judge_explanation
FROM audit
WHERE list_contains($ids, judge_record_id) <> $exclude
  AND review_match($languages, $units, $origins, $run_groups, $systems, $min_score, $max_score,
                   target_language, unit, score, score_origin, run_group, system)
  AND ($q = '' OR contains(lower(coalesce(judge_explanation, '')), lower($q)))
ORDER BY score, judge_record_id
LIMIT $limit
