-- Judge-judge contingency counts on judgements held out from calibration (question_id known,
-- never among the calibration items, key not a calibration key). Params: none.
WITH j AS (
    SELECT key, judge_model, verdict
    FROM judgements
    WHERE held_out(question_id, key)
)
SELECT a.judge_model AS judge_a, b.judge_model AS judge_b,
       a.verdict AS verdict_a, b.verdict AS verdict_b, count(*) AS n
FROM j AS a
JOIN j AS b ON a.key = b.key AND a.judge_model < b.judge_model
GROUP BY ALL
ORDER BY ALL
