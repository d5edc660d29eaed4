-- Calibration items with their three human verdicts, filtered by split.
-- Params: $splits (list of split names), $no_split (true: also items whose split is NULL);
-- an empty $splits with $no_split false means every item.
SELECT key, question_id, rep, split, category, question, reference_answer, model_response,
       human_1_verdict, human_2_verdict, human_3_verdict, human_correct, panel_correct
FROM items
WHERE (len($splits) = 0 AND NOT $no_split) OR list_contains($splits, split)
   OR ($no_split AND split IS NULL)
ORDER BY key
