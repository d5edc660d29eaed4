-- Human-verification rows per subset and system, for the filters. Params: none.
SELECT subset, system, count(*) AS n
FROM verification
GROUP BY ALL
ORDER BY ALL
