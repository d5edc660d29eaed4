-- Per-score counts of the named cells (unit × language × facet value), from the per-score counts
-- (audit_counts): for a binned audit, the cells whose scores span too few bins of the audit-wide
-- grid for a binned interval, drawn instead from their own scores (audit/binned.py). A cell's key
-- is unit, language and facet value joined by chr(31), each NULL written as chr(30).
-- Params: $facet (as audit_score_counts), $cells (a list of keys).
SELECT unit, target_language,
       audit_facet($facet, score_origin, run_group, source_split, dataset_version,
                   judge_prompt_version, requested_judge_model, system) AS facet,
       score::DOUBLE AS score, sum(n)::BIGINT AS n
FROM audit_counts
WHERE list_contains($cells::VARCHAR[], concat_ws(chr(31), coalesce(unit::VARCHAR, chr(30)),
                    coalesce(target_language::VARCHAR, chr(30)),
                    coalesce(audit_facet($facet, score_origin, run_group, source_split, dataset_version,
                                         judge_prompt_version, requested_judge_model, system), chr(30))))
GROUP BY ALL
ORDER BY unit, target_language, facet, score
