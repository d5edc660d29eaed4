-- Items whose ratings mark error spans, with how many ratings do (Human ratings' record view).
-- The item is every item column the dataset has, together (as ratings_long). Params: $limit.
SELECT concat_ws(chr(31), item_id, doc, CAST(doc_seg_id AS VARCHAR),
                 CAST(global_seg_id AS VARCHAR), segment_id, system) AS item,
       count(*) FILTER (WHERE error_spans IS NOT NULL AND error_spans NOT IN ('[]', 'null', '""'))
           AS rated_with_spans,
       count(*) AS ratings
FROM ratings
GROUP BY ALL
HAVING rated_with_spans > 0
ORDER BY min(_file), min(_row)
LIMIT $limit
