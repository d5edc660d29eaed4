-- The first row after the key ($after_score, $after_id) in the filtered Review list's total order
-- (score, judge_record_id; its exact reverse when $descending) whose id is not in $ids (the
-- reviewed ones), wrapping to the list's start when none follows.
-- Params: $languages, $units, $origins, $run_groups, $systems (empty list = all), $min_score, $max_score,
-- $q (text searched in explanations; '' = none), $ids, $after_score, $after_id, $descending.
SELECT score, judge_record_id
FROM audit
WHERE review_match($languages, $units, $origins, $run_groups, $systems, $min_score, $max_score,
                   target_language, unit, score, score_origin, run_group, system)
  AND ($q = '' OR contains(lower(coalesce(judge_explanation, '')), lower($q)))
  AND NOT list_contains($ids, judge_record_id)
ORDER BY CASE WHEN $descending THEN (score, judge_record_id) < ($after_score, $after_id)
              ELSE (score, judge_record_id) > ($after_score, $after_id) END DESC,
         CASE WHEN $descending THEN -score ELSE score END,
         CASE WHEN $descending THEN NULL ELSE judge_record_id END,
         CASE WHEN $descending THEN judge_record_id END DESC
LIMIT 1
