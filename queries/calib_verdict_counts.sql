-- Verdict distribution per judge over the whole judgements table.
-- Params: $heldout (true = drop judgements on any question_id seen in calibration items,
-- and judgements without a question_id, which cannot be shown to be held out).
SELECT judge_model, verdict, count(*) AS n,
       count(*) / sum(count(*)) OVER (PARTITION BY judge_model) AS share
FROM judgements AS j
WHERE NOT $heldout
   OR (j.question_id IS NOT NULL
       AND j.question_id NOT IN (SELECT question_id FROM items WHERE question_id IS NOT NULL)
       AND j.key NOT IN (SELECT key FROM items))
GROUP BY judge_model, verdict
ORDER BY judge_model, verdict
