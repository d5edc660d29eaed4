-- Judge verdicts on the calibration items (long form: one row per key and judge_model),
-- filtered by the items' split. Params: $splits (list of split names), $no_split (true: also
-- items whose split is NULL); an empty $splits with $no_split false means every item.
SELECT j.key, j.judge_model, j.judge, j.verdict, j.verdict_binary, j.reason
FROM judgements AS j
JOIN items AS i ON i.key = j.key
WHERE (len($splits) = 0 AND NOT $no_split) OR list_contains($splits, i.split)
   OR ($no_split AND i.split IS NULL)
ORDER BY j.key, j.judge_model
