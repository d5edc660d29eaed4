-- Provenance per judge: one row per distinct combination of recorded settings, with token
-- usage (sums and means over the rows that recorded them). NULL stays NULL ("not recorded").
-- Held out from calibration as in calib_verdict_counts_heldout. Params: none.
SELECT judge_model, judge, prompts, template, output_mode, reasoning_effort, finish_reason,
       count(*) AS judgements,
       count(tokens_in) AS tokens_in_recorded, sum(tokens_in) AS tokens_in_total,
       avg(tokens_in) AS tokens_in_mean,
       count(tokens_out) AS tokens_out_recorded, sum(tokens_out) AS tokens_out_total,
       avg(tokens_out) AS tokens_out_mean
FROM judgements AS j
WHERE held_out(j.question_id, j.key)
GROUP BY ALL
ORDER BY judge_model, judgements DESC
