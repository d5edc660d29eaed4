-- The k lowest-scoring rows of each language and unit. Params: $k, $max_score (the highest
-- score any cell's k lowest can have, from the counts: the score-sorted file is then read only
-- up to it).
SELECT target_language, unit, score, judge_record_id, judge_explanation
FROM audit
WHERE score <= $max_score
QUALIFY row_number() OVER (PARTITION BY target_language, unit
                           ORDER BY score, judge_record_id) <= $k
ORDER BY target_language, unit, score, judge_record_id
