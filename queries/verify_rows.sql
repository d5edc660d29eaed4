-- Audit rows of the chosen classes with stored and recomputed hashes and the snapshot texts.
-- Params: $key (join-key columns), $classes (list of classes), $limit (rows).
WITH chosen AS (
    SELECT * FROM verify_classified($key)
    WHERE list_contains($classes, class)
    ORDER BY class, target_language, unit, judge_record_id
    LIMIT $limit
)
SELECT c.judge_record_id, c.target_language, c.unit, c.paragraph_id, c.class, c.hint,
       c.snapshot_rows, c.stored_source_sha256, c.source_sha256,
       c.stored_candidate_sha256, c.candidate_sha256,
       coalesce(c.mismatch_source_text, v.source_text) AS source_text,
       coalesce(c.mismatch_candidate_text, v.candidate_text) AS candidate_text
FROM chosen c
LEFT JOIN snapshot v ON c.class = 'verified' AND v._file = c.snapshot_file AND v._row = c.snapshot_row
ORDER BY c.class, c.target_language, c.unit, c.judge_record_id
