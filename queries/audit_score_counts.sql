-- Rows per unit, language, facet value and exact score (the basis of every audit statistic),
-- read from the per-score counts built once per revision (audit_counts), not from the rows.
-- Params: $facet: none, score_origin, run_group, source_split, dataset_version,
-- judge_prompt_version, requested_judge_model or system (a column picked by value, never by text).
SELECT unit, target_language,
       audit_facet($facet, score_origin, run_group, source_split, dataset_version,
                   judge_prompt_version, requested_judge_model, system) AS facet,
       score::DOUBLE AS score, sum(n)::BIGINT AS n
FROM audit_counts
GROUP BY ALL
ORDER BY unit, target_language, facet, score
