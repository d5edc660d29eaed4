-- Every rating of one item, with its texts, error spans and any other column the file has (its
-- error counts, e.g. n_major / n_minor) (Human ratings' item view). Params: $item (the item key,
-- as ratings_long builds it).
SELECT * EXCLUDE (_file, _row)
FROM ratings
WHERE concat_ws(chr(31), item_id, doc, CAST(doc_seg_id AS VARCHAR),
                CAST(global_seg_id AS VARCHAR), segment_id, system) = $item
ORDER BY rater, _file, _row
