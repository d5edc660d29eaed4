-- For given audit rows: how many snapshot rows their join key matches, the position of the one
-- row when it is one, and the hash class, from `hash_verification_by_id` (Integrity's join and
-- "matches", sorted by id: each id's row group is found by its min/max statistics, so opening a
-- record or a Review page reads a few row groups, never every audit row).
-- Params: $ids (judge_record_id values, a page of Review or one record).
SELECT judge_record_id, snapshot_rows, snapshot_position, class
FROM hash_verification_by_id
WHERE judge_record_id = ANY($ids)
