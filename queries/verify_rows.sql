-- The first audit rows of one class with stored and recomputed hashes and the snapshot texts.
-- `hash_verification` is written sorted by class, language, unit and id (verify_build_rows.sql) and
-- DuckDB keeps a single file's order, so the first $limit rows of the class are the first in
-- that order and only the row groups holding the class are read.
-- Params: $class (one of verify.CLASSES), $limit (rows).
WITH chosen AS (
    SELECT * FROM hash_verification
    WHERE class = $class
    LIMIT $limit
)
SELECT c.judge_record_id, c.target_language, c.unit, c.paragraph_id, c.class, c.hint,
       c.snapshot_rows,
       coalesce(c.stored_source_sha256, v.source_sha256_computed) AS stored_source_sha256,
       coalesce(c.source_sha256, v.source_sha256_computed) AS source_sha256,
       coalesce(c.stored_candidate_sha256, v.candidate_sha256_computed) AS stored_candidate_sha256,
       coalesce(c.candidate_sha256, v.candidate_sha256_computed) AS candidate_sha256,
       v.source_text, v.candidate_text
FROM chosen c
LEFT JOIN snapshot_numbered v
  ON c.class IN ('verified', 'source_mismatch', 'candidate_mismatch', 'both_mismatch')
 AND v.file_row_number = c.snapshot_position
ORDER BY c.target_language, c.unit, c.judge_record_id
