-- How many ledger rows match the filters. Params: $datasets, $reasons (empty list = all).
SELECT count(*) AS rows
FROM ledger
WHERE (len($datasets) = 0 OR list_contains($datasets, dataset))
  AND (len($reasons) = 0 OR list_contains($reasons, reason))
