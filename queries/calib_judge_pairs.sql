-- Judge-judge contingency counts: for each pair of judges, how often each pair of verdicts
-- occurs on the same key. Params: $heldout (as in calib_verdict_counts).
WITH j AS (
    SELECT key, judge_model, verdict
    FROM judgements AS j
    WHERE NOT $heldout
       OR (j.question_id IS NOT NULL
           AND j.question_id NOT IN (SELECT question_id FROM items WHERE question_id IS NOT NULL)
           AND j.key NOT IN (SELECT key FROM items))
)
SELECT a.judge_model AS judge_a, b.judge_model AS judge_b,
       a.verdict AS verdict_a, b.verdict AS verdict_b, count(*) AS n
FROM j AS a
JOIN j AS b ON a.key = b.key AND a.judge_model < b.judge_model
GROUP BY ALL
ORDER BY ALL
