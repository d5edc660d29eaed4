-- Exact rows below each threshold per unit, language and facet value, from the per-score counts
-- (audit_counts): for a binned audit, the thresholds that fall inside a bin, whose counts
-- cannot say which of its rows lie below. Params: $facet (as audit_score_counts), $thresholds
-- (a list of scores).
SELECT unit, target_language,
       audit_facet($facet, score_origin, run_group, source_split, dataset_version,
                   judge_prompt_version, requested_judge_model, system) AS facet,
       t.threshold, coalesce(sum(n) FILTER (WHERE score < t.threshold), 0)::BIGINT AS below
FROM audit_counts CROSS JOIN unnest($thresholds::DOUBLE[]) AS t(threshold)
GROUP BY ALL
ORDER BY unit, target_language, facet, t.threshold
