-- The whole explanation of one audit row, read only when a reader asks for it (Review's
-- download of a long explanation; audit_record shows its first characters). Params: $record_id.
SELECT judge_explanation
FROM audit
WHERE judge_record_id = $record_id
  AND score IN (SELECT score FROM audit_record_index WHERE judge_record_id = $record_id)
