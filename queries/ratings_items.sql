-- Every item of the ratings, in file order, with how many ratings it has and how many of them
-- mark error spans (Human ratings' item picker). The item is every item column the dataset has,
-- together (as ratings_long). Params: $limit.
SELECT concat_ws(chr(31), item_id, doc, CAST(doc_seg_id AS VARCHAR),
                 CAST(global_seg_id AS VARCHAR), segment_id, system) AS item,
       count(*) AS ratings,
       count(*) FILTER (WHERE error_spans IS NOT NULL AND error_spans NOT IN ('[]', 'null', '""'))
           AS rated_with_spans
FROM ratings
GROUP BY ALL
ORDER BY min(_file), min(_row)
LIMIT $limit
