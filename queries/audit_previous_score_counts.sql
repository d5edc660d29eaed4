-- Rows per unit, language and exact score of the collection's earlier audit version, from its
-- prebuilt per-score counts. Params: none.
SELECT unit, target_language, score::DOUBLE AS score, sum(n)::BIGINT AS n
FROM audit_previous_counts
GROUP BY ALL
ORDER BY unit, target_language, score
