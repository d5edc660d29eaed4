-- The full raw records the release excluded, joined to their ledger reason. Runs on a scratch
-- connection (audit.excluded_raw_rows) where `raw` is the raw dataset as read from its files and
-- `excluded_ledger` its ledger. Params: $limit.
SELECT r.*, l.reason
FROM excluded_ledger l
JOIN raw r ON r._file = l.file AND r._row = l.row
ORDER BY l.file, l.row
LIMIT $limit
