-- Each judge's recorded settings (endpoint, prompts hash, template, output mode, reasoning
-- effort; NULL = not recorded) on the calibration items (labelled) and on every other
-- judgement (unlabelled), with their row counts. Params: none.
SELECT judge_model, key IN (SELECT key FROM items) AS labelled, judge, prompts, template,
       output_mode, reasoning_effort, count(*) AS n
FROM judgements
GROUP BY ALL
ORDER BY ALL
