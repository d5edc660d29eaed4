-- Judge-judge contingency counts: for each pair of judges, how often each pair of verdicts
-- occurs on the same key, over the whole judgements table. Params: none.
SELECT a.judge_model AS judge_a, b.judge_model AS judge_b,
       a.verdict AS verdict_a, b.verdict AS verdict_b, count(*) AS n
FROM judgements AS a
JOIN judgements AS b ON a.key = b.key AND a.judge_model < b.judge_model
GROUP BY ALL
ORDER BY ALL
