-- Every audit row joined to the snapshot and classified (queries/macros/verify.sql), sorted by
-- judge_record_id: written once per (audit file, snapshot file, join key) by
-- integrity/verification_tables.py as `hash_verification_by_id`, the only table of verification
-- that holds every audit row. Its row groups hold disjoint id ranges, so the min/max statistics of
-- judge_record_id let a lookup of a few ids (a Review page, one record) read one row group each
-- instead of scanning every audit row; the hints, the summary and Integrity's lists are built from
-- it (the hint of a mismatched row is in `hash_verification_hints`, verify_build_hints.sql).
-- Each row's score rides along, sorted with the id: with a snapshot joined, this table is also the
-- record index (audit_record_index, id → score; record_tables.RECORD_INDEX), so the first open
-- sorts the audit's ids once instead of twice.
-- A verified row's four hashes all equal the snapshot row's stored digests, so they are kept
-- only for the other classes (verify_rows reads the snapshot's for verified rows).
-- Params: $key (join-key columns, a subset of join_key.JOIN_COLUMNS; the others are ignored).
SELECT judge_record_id, score, target_language, unit, paragraph_id, class,
       snapshot_rows, snapshot_position,
       CASE WHEN class <> 'verified' THEN stored_source_sha256 END AS stored_source_sha256,
       CASE WHEN class <> 'verified' THEN stored_candidate_sha256 END AS stored_candidate_sha256,
       CASE WHEN class <> 'verified' THEN source_sha256 END AS source_sha256,
       CASE WHEN class <> 'verified' THEN candidate_sha256 END AS candidate_sha256
FROM verify_classified($key)
ORDER BY judge_record_id, score
