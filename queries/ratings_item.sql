-- Every rating of one item, with its texts and error spans (Human ratings' record view).
-- Params: $item (the item key, as ratings_long builds it).
SELECT rater, score, mqm, verdict, source_text, target_text, error_spans
FROM ratings
WHERE concat_ws(chr(31), item_id, doc, CAST(doc_seg_id AS VARCHAR),
                CAST(global_seg_id AS VARCHAR), segment_id, system) = $item
ORDER BY rater, _file, _row
