-- One translation pair with its full texts and human scores. Params: $file, $row (lineage of the pair).
SELECT _file AS file, _row AS row, dataset, src_text, tgt_texts[1] AS tgt_1, tgt_texts[2] AS tgt_2,
       src_lang, tgt_lang, src_lang_long, tgt_lang_long,
       human_scores[1] AS human_1, human_scores[2] AS human_2
FROM ranking
WHERE _file = $file AND _row = $row
