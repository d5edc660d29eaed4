-- The snapshot's English source and candidate of one audit row, found by that row's key values.
-- They are bound values, not a join: DuckDB prunes the snapshot's row groups by their min/max
-- (audit_rows.record_texts passes them from audit_record.sql's row).
-- Snapshot key columns may be NULL (absent from its file); they then do not constrain the match.
-- Params: $instance_id, $target_language, $unit, $paragraph_id, $source_sha256, $candidate_sha256.
SELECT source_text, candidate_text,
       sha256(source_text) = $source_sha256 AS source_hash_matches,
       sha256(candidate_text) = $candidate_sha256 AS candidate_hash_matches
FROM snapshot
WHERE instance_id = $instance_id
  AND (target_language IS NULL OR target_language = $target_language)
  AND (unit IS NULL OR unit = $unit)
  AND (paragraph_id IS NULL OR paragraph_id = $paragraph_id)
LIMIT 2
