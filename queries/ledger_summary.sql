-- Excluded rows counted per dataset and reason. Params: none.
SELECT dataset, reason, count(*) AS rows
FROM ledger
GROUP BY dataset, reason
ORDER BY dataset, rows DESC, reason
