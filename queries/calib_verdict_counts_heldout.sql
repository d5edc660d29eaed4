-- Verdict distribution per judge, held out from calibration: drops judgements on any
-- question_id seen among the calibration items (not only their attempt keys), on a
-- calibration key, or without a question_id (it cannot be shown to be held out). Params: none.
SELECT judge_model, verdict, count(*) AS n,
       count(*) / sum(count(*)) OVER (PARTITION BY judge_model) AS share
FROM judgements AS j
WHERE held_out(j.question_id, j.key)
GROUP BY judge_model, verdict
ORDER BY judge_model, verdict
