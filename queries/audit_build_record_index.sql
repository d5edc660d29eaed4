-- Every audit row's id and score, sorted by id: written once per audit file by
-- record_tables.audit_summary_views as `audit_record_index`, so a lookup by id reads one row group and
-- then only the audit row groups holding that score (see audit_record.sql). Params: none.
SELECT judge_record_id, score
FROM audit
ORDER BY judge_record_id, score
