-- The full raw records the release excluded, as read, with their ledger reason. Params: $limit.
SELECT *
FROM raw_records_excluded
ORDER BY _file, _row
LIMIT $limit
