-- Raw judge records excluded from the release: the ledger rows of the raw dataset, with reason.
-- Params: $dataset (the raw dataset's name), $limit.
SELECT dataset, file, row, record_id, "column", value, reason
FROM ledger
WHERE dataset = $dataset
ORDER BY file, row
LIMIT $limit
