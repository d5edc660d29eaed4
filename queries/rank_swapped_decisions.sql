-- Decisions judged with the two translations shown in the other order, one row per pair x column "<method>_swapped/<model>" (NULL texts kept). Params: none.
-- Run only when rank_columns finds such a column; "Translation 1" in these texts is the pair's second translation.
SELECT _file AS file, _row AS row, decision_column, decision_text
FROM ranking
UNPIVOT INCLUDE NULLS (decision_text FOR decision_column IN (
    COLUMNS('^(one_step_ranking|two_step_ranking|three_step_ranking|two_step_scoring)_swapped/.+$')))
ORDER BY _file, _row, decision_column
