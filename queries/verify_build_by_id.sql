-- The lookup side of `hash_verification`: each audit row's snapshot match count, position and
-- class, sorted by judge_record_id. Written once per (audit file, snapshot file, join key) by
-- integrity/verification_tables.py right after hash_verification (which is sorted by class for Integrity's
-- lists) as `hash_verification_by_id`: its row groups hold disjoint id ranges, so the min/max
-- statistics of judge_record_id let a lookup of a few ids (a Review page, one record) read one
-- row group each instead of scanning every audit row. Params: none.
SELECT judge_record_id, snapshot_rows, snapshot_position, class
FROM hash_verification
ORDER BY judge_record_id
