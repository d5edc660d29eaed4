-- Calibration items counted per split (NULL split kept as its own row). Params: none.
SELECT split, count(*) AS items, count(DISTINCT question_id) AS questions
FROM items
GROUP BY split
ORDER BY split NULLS LAST
