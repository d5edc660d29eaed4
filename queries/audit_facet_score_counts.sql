-- Rows per unit, language, facet value and exact score, grouped straight from the audit rows:
-- the direct path that tests compare the prebuilt counts against, and the benchmark's baseline
-- (pages use audit_score_counts). Params: $facet: one of source_split, dataset_version,
-- judge_prompt_version, requested_judge_model (a column picked by value, never by text).
SELECT unit, target_language,
       CASE $facet
           WHEN 'source_split' THEN source_split
           WHEN 'dataset_version' THEN dataset_version
           WHEN 'judge_prompt_version' THEN judge_prompt_version
           WHEN 'requested_judge_model' THEN requested_judge_model
           ELSE NULL
       END::VARCHAR AS facet,
       score::DOUBLE AS score, count(*) AS n
FROM audit
GROUP BY ALL
ORDER BY unit, target_language, facet, score
