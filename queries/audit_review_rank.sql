-- Where one row stands in the filtered Review list: how many matching rows come before the key
-- ($key_score, $key_id) in the list's total order (score, judge_record_id; its exact reverse
-- when $descending), and whether the key itself matches the filters (0 or 1).
-- Params: $languages, $units, $origins, $run_groups, $systems (empty list = all), $min_score, $max_score,
-- $q (text searched in explanations; '' = none), $key_score, $key_id, $descending.
SELECT count(*) FILTER (WHERE CASE WHEN $descending THEN (score, judge_record_id) > ($key_score, $key_id)
                                   ELSE (score, judge_record_id) < ($key_score, $key_id) END) AS before,
       count(*) FILTER (WHERE score = $key_score AND judge_record_id = $key_id) AS here
FROM audit
WHERE review_match($languages, $units, $origins, $run_groups, $systems, $min_score, $max_score,
                   target_language, unit, score, score_origin, run_group, system)
  AND ($q = '' OR contains(lower(coalesce(judge_explanation, '')), lower($q)))
