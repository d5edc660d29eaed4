-- For given audit rows: how many snapshot rows their join key matches, the position of the one
-- row when it is one, and the hash class, all from `hash_verification` (built once per audit,
-- snapshot and join key, the same join and the same "matches" as Integrity).
-- Params: $ids (judge_record_id values, a page of Review or one record).
SELECT judge_record_id, snapshot_rows, snapshot_position, class
FROM hash_verification
WHERE judge_record_id = ANY($ids)
