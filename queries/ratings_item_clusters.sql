-- The document of each rated item (for intervals that resample whole documents), NULL when the
-- ratings have no doc column. The item key is built exactly as in ratings_long. Params: none.
SELECT DISTINCT concat_ws(chr(31), item_id, doc, CAST(doc_seg_id AS VARCHAR),
                          CAST(global_seg_id AS VARCHAR), segment_id, system) AS item,
       doc AS cluster
FROM ratings
ORDER BY item
