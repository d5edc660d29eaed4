-- audit_review_neighbour_bounds for a binned (float) audit, from audit_bins alone, as
-- audit_review_page_bound_binned bounds a page of one row each way: never short of the exact
-- bounds (the rows of the key's own bin and of the edge bins go uncounted, so a few more rows
-- are read). low_bound: the lowest score of the nearest bin below the key's bin with a matching
-- row wholly inside the score range, else $min_score; high_bound: the highest score of the
-- nearest such bin above it, else $max_score. Clipped to the score range.
-- Params: the Review filters without $q, $key_score.
WITH edge AS (SELECT b_key FROM review_edges($min_score, $max_score, $key_score)),
per_bin AS (
    SELECT bin, min(low) AS low, max(high) AS high
    FROM review_inner_bins($languages, $units, $origins, $run_groups, $systems, $min_score, $max_score)
    GROUP BY bin
    HAVING sum(n) > 0
)
SELECT greatest(coalesce(max(low) FILTER (WHERE bin < b_key), $min_score), $min_score)::DOUBLE AS low_bound,
       least(coalesce(min(high) FILTER (WHERE bin > b_key), $max_score), $max_score)::DOUBLE AS high_bound
FROM per_bin, edge
