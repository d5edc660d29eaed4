-- Rows per unit, language, facet value and exact score (the basis of every audit statistic),
-- read from the per-score counts built once per revision (audit_counts), not from the rows.
-- Params: $facet: none, score_origin, run_group, source_split, dataset_version,
-- judge_prompt_version, requested_judge_model or system (a column picked by value, never by text).
SELECT unit, target_language,
       CASE $facet
           WHEN 'score_origin' THEN score_origin
           WHEN 'run_group' THEN run_group
           WHEN 'source_split' THEN source_split
           WHEN 'dataset_version' THEN dataset_version
           WHEN 'judge_prompt_version' THEN judge_prompt_version
           WHEN 'requested_judge_model' THEN requested_judge_model
           WHEN 'system' THEN system
           ELSE NULL
       END::VARCHAR AS facet,
       score::DOUBLE AS score, sum(n)::BIGINT AS n
FROM audit_counts
GROUP BY ALL
ORDER BY unit, target_language, facet, score
