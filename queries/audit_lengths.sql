-- Score and the candidate's and source's length in characters of every audit row whose join key
-- finds exactly one snapshot row (the row Integrity joined: hash_verification_by_id holds every
-- audit row), with its cluster (instance_id, else the record itself), for the length probe.
-- Params: none.
SELECT a.target_language, a.unit, a.score,
       coalesce(CAST(a.instance_id AS VARCHAR), a.judge_record_id) AS cluster,
       length(s.candidate_text) AS candidate_chars, length(s.source_text) AS source_chars
FROM audit a
JOIN hash_verification_by_id h ON h.judge_record_id = a.judge_record_id AND h.snapshot_rows = 1
JOIN snapshot_numbered s ON s.file_row_number = h.snapshot_position
ORDER BY a.target_language, a.unit, a.judge_record_id
