-- Per system and item: the mean of the item's numeric ratings (score, else mqm) and how many
-- ratings it has — the items Human ratings' per-system view resamples. Rows without a system
-- or without a numeric rating are left out (counted by the page). Params: $value ('score' or
-- 'mqm', a column picked by value, never by text).
SELECT system,
       concat_ws(chr(31), item_id, doc, CAST(doc_seg_id AS VARCHAR),
                 CAST(global_seg_id AS VARCHAR), segment_id) AS item,
       avg(CASE $value WHEN 'score' THEN score WHEN 'mqm' THEN mqm END) AS item_mean,
       count(CASE $value WHEN 'score' THEN score WHEN 'mqm' THEN mqm END) AS ratings
FROM ratings
WHERE system IS NOT NULL
GROUP BY ALL
HAVING ratings > 0
ORDER BY system, item
