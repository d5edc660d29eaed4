-- held_out(question_id, key): whether a judgement is held out from calibration: it names a
-- question, that question is not among the calibration items' questions, and its attempt key is
-- not a calibration item's key. One definition for every calib_*_heldout query (Bulk judgements).
CREATE MACRO held_out(row_question_id, row_key) AS
    row_question_id IS NOT NULL
    AND row_question_id NOT IN (SELECT question_id FROM items WHERE question_id IS NOT NULL)
    AND row_key NOT IN (SELECT key FROM items);
