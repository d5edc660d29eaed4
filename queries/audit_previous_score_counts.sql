-- Rows per unit, language and exact score of the collection's earlier audit version. Params: none.
SELECT unit, target_language, score::DOUBLE AS score, count(*) AS n
FROM audit_previous
GROUP BY ALL
ORDER BY unit, target_language, score
