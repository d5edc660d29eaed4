-- The score bound of the next Review page, from the per-score counts (audit_counts) instead of
-- the rows: ascending, the lowest score s with at least $page_size matching rows in
-- ($after_score, s]; descending, the highest s with as many in [s, $after_score). The page query
-- then reads the score-sorted audit only up to that bound (its Parquet row groups carry score
-- min/max). Without enough rows the bound is the filter's own ($max_score, or $min_score).
-- Params: the Review filters without $q, $after_score, $descending, $page_size.
WITH per_score AS (
    SELECT score, sum(n) AS n
    FROM audit_counts
    WHERE review_match($languages, $units, $origins, $run_groups, $systems, $min_score, $max_score,
                       target_language, unit, score, score_origin, run_group, system)
      AND CASE WHEN $descending THEN score < $after_score ELSE score > $after_score END
    GROUP BY score
),
running AS (
    SELECT score, sum(n) OVER (ORDER BY CASE WHEN $descending THEN -score ELSE score END) AS upto
    FROM per_score
)
SELECT CASE WHEN $descending
            THEN coalesce(max(score) FILTER (WHERE upto >= $page_size), $min_score)
            ELSE coalesce(min(score) FILTER (WHERE upto >= $page_size), $max_score)
       END::DOUBLE AS bound
FROM running
