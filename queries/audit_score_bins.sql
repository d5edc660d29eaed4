-- Rows per unit, language, facet value and bin of the audit-wide score grid, with each bin's n,
-- Σx, Σx², lowest and highest score, pooled over the other facets (audit_bins, written at
-- validation: a float audit's pages read these instead of one count per distinct score).
-- Params: $facet: none, score_origin, run_group, source_split, dataset_version,
-- judge_prompt_version, requested_judge_model or system (a column picked by value, never by text).
SELECT unit, target_language,
       audit_facet($facet, score_origin, run_group, source_split, dataset_version,
                   judge_prompt_version, requested_judge_model, system) AS facet,
       bin, bin_width, sum(n)::BIGINT AS n, fsum(total) AS total, fsum(total_sq) AS total_sq,
       min(low) AS low, max(high) AS high
FROM audit_bins
GROUP BY ALL
ORDER BY unit, target_language, facet, bin
