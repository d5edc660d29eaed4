-- Every model decision text, one row per pair x decision column "<method>/<model>" (NULL texts kept). Params: none.
-- The method list mirrors schema.RANKING_METHODS (a test checks); run only when rank_columns finds a match.
SELECT _file AS file, _row AS row, decision_column, decision_text
FROM ranking
UNPIVOT INCLUDE NULLS (decision_text FOR decision_column IN (
    COLUMNS('^(one_step_ranking|two_step_ranking|three_step_ranking|two_step_scoring)/.+$')))
ORDER BY _file, _row, decision_column
