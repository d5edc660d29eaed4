-- One row per unit scored in each run (queries/macros/drift.sql, drift_paired): its language and
-- unit, both scores, new minus old, whether it is an anchor and stable, and the rows each run holds
-- for it; the narrow columns the drift statistics read (audit/drift_report.py), so two 10M-row
-- runs fit the Store's memory bound as a result. Ids and keys of the anchors that moved most are
-- in drift_moved_most. Ordered by the unit's key although no figure depends on the rows' order
-- (each resample of audit/drift.py is a multinomial over distinct values): unordered, DuckDB
-- keeps the join's output in memory to preserve its order and two 1M-row runs ran out of the
-- Store's bound, where the sort spills. Params: none.
SELECT target_language, unit, old_score, new_score, diff, anchor, stable, old_rows, new_rows
FROM drift_paired()
ORDER BY target_language, unit, source_id, paragraph_id
