-- The excluded-rows ledger, filtered. Params: $datasets, $reasons (empty list = all), $limit.
SELECT dataset, file, row, "column", reason, value, record_id
FROM ledger
WHERE (len($datasets) = 0 OR list_contains($datasets, dataset))
  AND (len($reasons) = 0 OR list_contains($reasons, reason))
ORDER BY dataset, file, row
LIMIT $limit
