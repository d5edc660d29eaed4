-- How many judgements a held-out view keeps: those whose question_id is known and never
-- appears among the calibration items (and whose key is not a calibration key). Params: none.
SELECT count(*) AS judgements,
       count(*) FILTER (WHERE question_id IS NULL) AS without_question_id,
       count(*) FILTER (WHERE question_id IN (SELECT question_id FROM items)
                          OR key IN (SELECT key FROM items)) AS on_calibration_questions,
       count(*) FILTER (WHERE held_out(question_id, key)) AS held_out
FROM judgements
