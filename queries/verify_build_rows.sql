-- Every audit row joined to the snapshot and classified (queries/macros/verify.sql), written once
-- per (audit file, snapshot file, join key) by catalog.verification_views as the `hash_verification`
-- view. Sorted by class, then by snapshot position (audit rows without a snapshot row last, then
-- language, unit and id): a class's rows are contiguous, so the Integrity list reads only the
-- first row groups of its class, and the snapshot rows it shows lie close together, so fetching
-- their texts reads a few of the snapshot's row groups instead of all of them.
-- A verified row's four hashes all equal the snapshot row's stored digests, so they are kept
-- only for the other classes (verify_rows reads the snapshot's for verified rows).
-- Params: $key (join-key columns, a subset of verify.JOIN_COLUMNS; the others are ignored).
SELECT judge_record_id, target_language, unit, paragraph_id, class, hint,
       snapshot_rows, snapshot_position,
       CASE WHEN class <> 'verified' THEN stored_source_sha256 END AS stored_source_sha256,
       CASE WHEN class <> 'verified' THEN stored_candidate_sha256 END AS stored_candidate_sha256,
       CASE WHEN class <> 'verified' THEN source_sha256 END AS source_sha256,
       CASE WHEN class <> 'verified' THEN candidate_sha256 END AS candidate_sha256
FROM verify_classified($key)
ORDER BY class, snapshot_position NULLS LAST, target_language, unit, judge_record_id
