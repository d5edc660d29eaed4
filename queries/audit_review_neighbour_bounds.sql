-- The score bounds of the two rows beside one row (the key) in the Review list, from the
-- per-score counts (audit_counts) instead of the rows: audit_review_page_bound of a page of one
-- row read each way, in one query. low_bound: the highest score below $key_score with a matching
-- row, else $min_score; high_bound: the lowest above it, else $max_score (the key's own ties lie
-- between the two). audit_review_neighbours then reads only the row groups between them.
-- Params: the Review filters without $q, $key_score.
SELECT coalesce(max(score) FILTER (WHERE score < $key_score), $min_score)::DOUBLE AS low_bound,
       coalesce(min(score) FILTER (WHERE score > $key_score), $max_score)::DOUBLE AS high_bound
FROM audit_counts
WHERE review_match($languages, $units, $origins, $run_groups, $systems, $min_score, $max_score,
                   target_language, unit, score, score_origin, run_group, system)
  AND score <> $key_score
  AND n > 0
