-- Per unit: rows of each version, pairs and duplicated pairing keys, from the table built once per pair of
-- audit files (audit_build_overlap.sql). Params: none.
SELECT unit, n_current, n_previous, overlap, duplicate_keys_current, duplicate_keys_previous
FROM audit_version_overlap
ORDER BY unit
