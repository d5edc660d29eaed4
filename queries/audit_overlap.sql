-- Per unit: rows of each version and keys present in both, from the table built once per pair of
-- audit files (audit_build_overlap.sql). Params: none.
SELECT unit, n_current, n_previous, overlap
FROM audit_version_overlap
ORDER BY unit
