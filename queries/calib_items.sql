-- Calibration items with their three human verdicts, filtered by split.
-- Params: $splits (list of split names; empty list = every item).
SELECT key, question_id, rep, split, category, question, reference_answer, model_response,
       human_1_verdict, human_2_verdict, human_3_verdict, human_correct, panel_correct
FROM items
WHERE len($splits) = 0 OR list_contains($splits, split)
ORDER BY key
