-- How many audit rows match the Review filters when there is no text search, summed from the
-- per-score counts built once per revision (audit_counts) instead of scanning the rows.
-- Params: $languages, $units, $origins, $run_groups, $systems (empty list = all), $min_score, $max_score.
SELECT coalesce(sum(n), 0)::BIGINT AS rows
FROM audit_counts
WHERE review_match($languages, $units, $origins, $run_groups, $systems, $min_score, $max_score,
                   target_language, unit, score, score_origin, run_group, system)
