-- The rows Integrity lists, written once per (audit file, snapshot file, join key) after
-- `hash_verification_by_id` (every audit row) as the `hash_verification` view: every row that is
-- not verified, and the first $listed verified rows (no page lists more: pages/integrity.py's
-- LIST_LIMIT, Review's ORIGIN_LIMIT). Writing every verified row a second time, sorted by
-- class, cost the first open of a 10M-row audit about 12 s; verified rows are the bulk.
-- Sorted by class, then by snapshot position (audit rows without a snapshot row last, then
-- language, unit and id): a class's rows are contiguous, so the Integrity list reads only the
-- first row groups of its class, and the snapshot rows it shows lie close together, so fetching
-- their texts reads a few of the snapshot's row groups instead of all of them.
-- A mismatched row carries its normalisation hint (`hash_verification_hints`); other rows none.
-- Params: $listed (verified rows kept: the longest list a page shows).
SELECT * FROM (
    SELECT b.*, h.hint FROM hash_verification_by_id b
    LEFT JOIN hash_verification_hints h USING (judge_record_id)
    WHERE b.class <> 'verified'
    UNION ALL BY NAME
    (SELECT *, NULL::VARCHAR AS hint FROM hash_verification_by_id WHERE class = 'verified'
     ORDER BY snapshot_position NULLS LAST, target_language, unit, judge_record_id
     LIMIT $listed)
)
ORDER BY class, snapshot_position NULLS LAST, target_language, unit, judge_record_id
