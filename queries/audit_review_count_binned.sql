-- How many audit rows match the Review filters without a text search, for a binned (float)
-- audit, the same answer as audit_review_count: the bins of audit_bins strictly between the bin
-- of $min_score and that of $max_score lie wholly inside the score range and are summed whole;
-- the rows of those two edge bins are counted exactly from the per-score counts (audit_counts)
-- with the range applied (none when a bound is at or beyond every score: review_min_bin,
-- review_max_bin). The grid (bin width, lowest and highest score, first and last bin) is read
-- from audit_bins, never assumed.
-- Params: $languages, $units, $origins, $run_groups, $systems (empty list = all), $min_score, $max_score.
WITH edge AS (FROM review_edges($min_score, $max_score, NULL)),
whole AS (
    SELECT coalesce(sum(n), 0)::BIGINT AS n
    FROM review_inner_bins($languages, $units, $origins, $run_groups, $systems, $min_score, $max_score)
),
exact AS (
    SELECT coalesce(sum(n), 0)::BIGINT AS n
    FROM audit_counts, edge
    WHERE review_match($languages, $units, $origins, $run_groups, $systems, $min_score, $max_score,
                       target_language, unit, score, score_origin, run_group, system)
      AND score_bin(score::DOUBLE, width) IN (b_min, b_max)
)
SELECT (whole.n + exact.n)::BIGINT AS rows
FROM whole, exact
