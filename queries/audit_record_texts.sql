-- The snapshot's English source and candidate of one audit row. Params: $record_id.
-- Snapshot key columns may be NULL (absent from its file); they then do not constrain the join.
-- The audit row is found through audit_record_index, as in audit_record.sql.
SELECT s.source_text, s.candidate_text,
       sha256(s.source_text) = a.source_text_sha256 AS source_hash_matches,
       sha256(s.candidate_text) = a.candidate_text_sha256 AS candidate_hash_matches
FROM audit a
JOIN snapshot s
  ON s.instance_id = a.instance_id
 AND (s.target_language IS NULL OR s.target_language = a.target_language)
 AND (s.unit IS NULL OR s.unit = a.unit)
 AND (s.paragraph_id IS NULL OR s.paragraph_id = a.paragraph_id)
WHERE a.judge_record_id = $record_id
  AND a.score IN (SELECT score FROM audit_record_index WHERE judge_record_id = $record_id)
LIMIT 2
