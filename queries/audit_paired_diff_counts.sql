-- Paired score differences (current minus previous) per unit and exact difference, from the
-- table built once per pair of audit files (audit_build_paired_diff_counts.sql). Params: none.
SELECT unit, diff, n
FROM audit_paired_diffs
ORDER BY unit, diff
