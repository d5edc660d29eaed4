-- Snapshot rows by position in the clean file: their texts and the digests computed when the
-- snapshot was validated. A bound list compared with = ANY is pushed into the Parquet scan, which
-- reads only the row groups holding those positions (a join would read all of them).
-- Params: $positions (file_row_number values from verify_rows.snapshot_position).
SELECT file_row_number AS snapshot_position, source_text, candidate_text,
       source_sha256_computed, candidate_sha256_computed
FROM snapshot_numbered
WHERE file_row_number = ANY($positions)
