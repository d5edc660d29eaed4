-- Where one row stands in the filtered Review list without a text search, for a binned (float)
-- audit, the same answer as audit_review_rank: the matching rows on scores strictly before
-- $key_score in the list's order are the bins of audit_bins strictly inside the score range and
-- strictly before the bin of $key_score (summed whole), plus the rows of the bins of $min_score,
-- $max_score and $key_score counted exactly from the per-score counts (audit_counts; a bin that
-- is two of these is counted once); the rows tied on $key_score are read from the score-sorted
-- audit as in audit_review_rank_prebuilt. Descending, the mirror (bins after the key's).
-- Params: $languages, $units, $origins, $run_groups, $systems (empty list = all), $min_score, $max_score,
-- $key_score, $key_id, $descending.
WITH edge AS (FROM review_edges($min_score, $max_score, $key_score)),
whole AS (
    SELECT coalesce(sum(n), 0)::BIGINT AS n
    FROM review_inner_bins($languages, $units, $origins, $run_groups, $systems, $min_score, $max_score), edge
    WHERE CASE WHEN $descending THEN bin > b_key ELSE bin < b_key END
),
exact AS (
    SELECT coalesce(sum(n), 0)::BIGINT AS n
    FROM audit_counts, edge
    WHERE review_match($languages, $units, $origins, $run_groups, $systems, $min_score, $max_score,
                       target_language, unit, score, score_origin, run_group, system)
      AND CASE WHEN $descending THEN score > $key_score ELSE score < $key_score END
      AND score_bin(score::DOUBLE, width) IN (b_min, b_max, b_key)
),
tied AS (
    FROM review_tied($languages, $units, $origins, $run_groups, $systems, $min_score, $max_score,
                     $key_score, $key_id, $descending)
)
SELECT (whole.n + exact.n + tied.before)::BIGINT AS before, tied.here::BIGINT AS here
FROM whole, exact, tied
