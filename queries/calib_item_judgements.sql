-- Judge verdicts on the calibration items (long form: one row per key and judge_model),
-- filtered by the items' split. Params: $splits (list; empty list = every item).
SELECT j.key, j.judge_model, j.judge, j.verdict, j.verdict_binary, j.reason
FROM judgements AS j
JOIN items AS i ON i.key = j.key
WHERE len($splits) = 0 OR list_contains($splits, i.split)
ORDER BY j.key, j.judge_model
