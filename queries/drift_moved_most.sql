-- The stable anchors whose score changed most (largest |new − old|, then language, unit, source
-- and paragraph), with their keys and both record ids (queries/macros/drift.sql, drift_paired):
-- drift_report.moved_most's rows, chosen here so the per-unit pairs (drift_pairs) carry no ids.
-- Params: $limit (rows kept).
SELECT target_language, unit, source_id, paragraph_id, old_score, new_score, diff,
       old_record_id, new_record_id
FROM drift_paired()
WHERE anchor AND stable AND diff <> 0
ORDER BY abs(diff) DESC, target_language, unit, source_id, paragraph_id
LIMIT $limit
