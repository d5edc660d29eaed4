-- A score bound of the next Review page for a binned (float) audit, from audit_bins alone: never
-- short of audit_review_page_bound's exact one (the page read up to it is the same page, a few
-- more rows read: those of the key's own bin and of the edge bins go uncounted). Ascending, the matching rows of the bins strictly after the bin of
-- $after_score and strictly inside the score range (whole bins only, so they under-count the
-- rows after the key), summed bin by bin; the bound is the highest score of the first bin where
-- that sum reaches $page_size. Descending, the mirror (bins before, lowest score). Without
-- enough rows, the filter's own bound ($max_score, or $min_score). Clipped to the score range.
-- Params: the Review filters without $q, $after_score, $descending, $page_size.
WITH edge AS (SELECT b_key AS b_after FROM review_edges($min_score, $max_score, $after_score)),
per_bin AS (
    SELECT bin, sum(n) AS n, min(low) AS low, max(high) AS high
    FROM review_inner_bins($languages, $units, $origins, $run_groups, $systems, $min_score, $max_score), edge
    WHERE CASE WHEN $descending THEN bin < b_after ELSE bin > b_after END
    GROUP BY bin
),
running AS (
    SELECT low, high, sum(n) OVER (ORDER BY CASE WHEN $descending THEN -bin ELSE bin END) AS upto
    FROM per_bin
)
SELECT CASE WHEN $descending
            THEN greatest(coalesce(max(low) FILTER (WHERE upto >= $page_size), $min_score), $min_score)
            ELSE least(coalesce(min(high) FILTER (WHERE upto >= $page_size), $max_score), $max_score)
       END::DOUBLE AS bound
FROM running
