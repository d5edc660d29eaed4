-- Verdict distribution per judge over the whole judgements table. Params: none.
SELECT judge_model, verdict, count(*) AS n,
       count(*) / sum(count(*)) OVER (PARTITION BY judge_model) AS share
FROM judgements
GROUP BY judge_model, verdict
ORDER BY judge_model, verdict
