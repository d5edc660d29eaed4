-- Where one row stands in the filtered Review list when there is no text search (the same answer
-- as audit_review_rank): the matching rows on scores strictly before $key_score in the list's
-- order are summed from the per-score counts (audit_counts), and only the rows tied on
-- $key_score are read from the score-sorted audit, whose row groups the equality on score
-- prunes, so the position costs a few row groups, not a scan of every row.
-- Params: $languages, $units, $origins, $run_groups, $systems (empty list = all), $min_score, $max_score,
-- $key_score, $key_id, $descending.
WITH counted AS (
    SELECT coalesce(sum(n), 0)::BIGINT AS n
    FROM audit_counts
    WHERE review_match($languages, $units, $origins, $run_groups, $systems, $min_score, $max_score,
                       target_language, unit, score, score_origin, run_group, system)
      AND CASE WHEN $descending THEN score > $key_score ELSE score < $key_score END
),
tied AS (
    FROM review_tied($languages, $units, $origins, $run_groups, $systems, $min_score, $max_score,
                     $key_score, $key_id, $descending)
)
SELECT (counted.n + tied.before)::BIGINT AS before, tied.here::BIGINT AS here
FROM counted, tied
