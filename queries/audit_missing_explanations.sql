-- Rows whose explanation is missing (NULL, as audit_counts counts them). Params: $limit.
SELECT judge_record_id, target_language, unit, score,
       coalesce(score_origin, 'not recorded') AS score_origin, run_group, _file, _row
FROM audit
WHERE judge_explanation IS NULL
ORDER BY score, judge_record_id
LIMIT $limit
