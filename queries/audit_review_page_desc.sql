-- One page of the Review list, highest score first, by keyset (no OFFSET over millions).
-- Params: $languages, $units, $origins, $run_groups, $systems (empty list = all), $min_score, $max_score,
-- $q (plain text searched in explanations, case-insensitive; '' = no search),
-- $after_score, $after_id (the last row of the previous page; 1e308, '' for the first), $page_size.
-- The exact reverse of audit_review_page's total order (score, judge_record_id): ties on score
-- run by judge_record_id descending, so reading this list from a row gives the rows just before
-- it in the ascending list (Prev), one order definition for both directions.
-- `score <= $after_score` repeats what the keyset already implies so that the score's min/max
-- statistics prune row groups above the previous page (a tuple comparison is not pushed down).
-- A list cell holds an explanation's first 2,000 characters (the opened record reads it all).
SELECT score, target_language, unit, left(judge_explanation, 2000) AS judge_explanation,
       coalesce(score_origin, 'not recorded') AS score_origin,
       coalesce(run_group, 'not recorded') AS run_group, system, instance_id, paragraph_id,
       judge_record_id
FROM audit
WHERE review_match($languages, $units, $origins, $run_groups, $systems, $min_score, $max_score,
                   target_language, unit, score, score_origin, run_group, system)
  AND ($q = '' OR contains(lower(coalesce(judge_explanation, '')), lower($q)))
  AND (score, judge_record_id) < ($after_score, $after_id)
  AND score <= $after_score
ORDER BY score DESC, judge_record_id DESC
LIMIT $page_size
