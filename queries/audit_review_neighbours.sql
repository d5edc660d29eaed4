-- The rows just below and just above one row (the key) in Review's total order (score,
-- judge_record_id), in one query: side 'lower' is the first row of audit_review_page_desc read
-- from the key, 'higher' the first of audit_review_page (Prev and Next, whichever way the list
-- runs). Each side reads only the score range between the key and its bound
-- (audit_review_neighbour_bounds; without them, the filter's $min_score and $max_score): the
-- constant range prunes the score-sorted audit's row groups, as the page queries' do.
-- Params: the Review filters (with $q), $key_score, $key_id, $low_bound, $high_bound.
(SELECT 'lower' AS side, score, judge_record_id
 FROM audit
 WHERE review_match($languages, $units, $origins, $run_groups, $systems, $min_score, $max_score,
                    target_language, unit, score, score_origin, run_group, system)
   AND ($q = '' OR contains(lower(coalesce(judge_explanation, '')), lower($q)))
   AND (score, judge_record_id) < ($key_score, $key_id)
   AND score BETWEEN $low_bound AND $key_score
 ORDER BY score DESC, judge_record_id DESC
 LIMIT 1)
UNION ALL
(SELECT 'higher' AS side, score, judge_record_id
 FROM audit
 WHERE review_match($languages, $units, $origins, $run_groups, $systems, $min_score, $max_score,
                    target_language, unit, score, score_origin, run_group, system)
   AND ($q = '' OR contains(lower(coalesce(judge_explanation, '')), lower($q)))
   AND (score, judge_record_id) > ($key_score, $key_id)
   AND score BETWEEN $key_score AND $high_bound
 ORDER BY score, judge_record_id
 LIMIT 1)
