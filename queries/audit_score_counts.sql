-- Rows per unit, language, facet value and exact score (the basis of every audit statistic),
-- read from the per-score counts built once per revision (audit_counts), not from the rows.
-- Params: $facet: none, score_origin or run_group (a column picked by value, never by text);
-- other facets: audit_facet_score_counts.
SELECT unit, target_language,
       CASE $facet WHEN 'score_origin' THEN score_origin WHEN 'run_group' THEN run_group
                   ELSE NULL END::VARCHAR AS facet,
       score::DOUBLE AS score, sum(n)::BIGINT AS n
FROM audit_counts
GROUP BY ALL
ORDER BY unit, target_language, facet, score
