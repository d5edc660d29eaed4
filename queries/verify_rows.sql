-- The first audit rows of one class, with the hashes kept for non-verified rows and the position
-- of their snapshot row (hashes.class_rows adds the snapshot's digests and texts from
-- verify_row_texts.sql). `hash_verification` is written sorted by class and snapshot position
-- (verify_build_rows.sql) and DuckDB keeps a single file's order, so the first $limit rows of
-- the class are the first in that order and only the row groups holding the class are read.
-- Params: $class (one of hashes.CLASSES), $limit (rows).
SELECT judge_record_id, target_language, unit, paragraph_id, class, hint, snapshot_rows,
       snapshot_position, stored_source_sha256, source_sha256, stored_candidate_sha256,
       candidate_sha256
FROM hash_verification
WHERE class = $class
LIMIT $limit
