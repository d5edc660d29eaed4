-- The k lowest-scoring rows of each language and unit. Params: $k.
SELECT target_language, unit, score, judge_record_id, judge_explanation
FROM audit
QUALIFY row_number() OVER (PARTITION BY target_language, unit
                           ORDER BY score, judge_record_id) <= $k
ORDER BY target_language, unit, score, judge_record_id
