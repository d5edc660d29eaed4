-- Every exact-copy row with its snapshot candidate text (for triage hints), lowest score first,
-- written once per (audit file, hash verification) by record_tables.exact_copy_views as
-- `audit_exact_copies`. The snapshot row is Integrity's: the one row the collection's join key
-- finds (hash_verification_by_id.snapshot_position, fetched by position); when the key finds none or
-- several, there is no text, as on Review and Integrity. Params: none.
SELECT a.score, a.target_language, a.unit, s.candidate_text, a.judge_explanation,
       coalesce(a.score_origin, 'not recorded') AS score_origin, a.instance_id, a.paragraph_id,
       a.candidate_text_sha256, a.judge_record_id
FROM audit a
LEFT JOIN hash_verification_by_id h ON h.judge_record_id = a.judge_record_id
LEFT JOIN snapshot_numbered s ON h.snapshot_rows = 1 AND s.file_row_number = h.snapshot_position
WHERE a.candidate_text_sha256 = a.source_text_sha256
ORDER BY a.score, a.judge_record_id
