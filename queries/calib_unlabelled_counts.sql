-- Per judge: judgements on keys that are not calibration items (unlabelled), and how many of
-- them say match (the binary pass). Params: none.
SELECT judge_model, count(*) AS n, count(*) FILTER (WHERE verdict = 'match') AS passes
FROM judgements
WHERE key NOT IN (SELECT key FROM items)
GROUP BY judge_model
ORDER BY judge_model
