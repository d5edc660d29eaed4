-- One row per translation pair: lineage, dataset, languages, both human scores and a source preview. Params: none.
SELECT _file AS file, _row AS row, dataset, src_lang, tgt_lang, src_lang_long, tgt_lang_long,
       human_scores[1] AS human_1, human_scores[2] AS human_2,
       left(src_text, 120) AS src_preview
FROM ranking
ORDER BY _file, _row
