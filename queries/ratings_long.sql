-- Human ratings in long form, one row per rater per item. The item is every item column the
-- dataset has, together (absent columns are NULL in the view and skipped by concat_ws).
-- Params: none.
SELECT concat_ws(chr(31), item_id, doc, CAST(doc_seg_id AS VARCHAR),
                 CAST(global_seg_id AS VARCHAR), segment_id, system) AS item,
       rater, score, mqm, verdict
FROM ratings
ORDER BY _file, _row
