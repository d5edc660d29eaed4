-- The system whose output each of the given audit rows judged ('not recorded' when empty). Params: $ids (judge_record_id list).
SELECT judge_record_id, coalesce(system, 'not recorded') AS system
FROM audit
WHERE list_contains($ids, judge_record_id)
ORDER BY judge_record_id
