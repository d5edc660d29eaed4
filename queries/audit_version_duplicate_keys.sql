-- Pairing keys (source_id, target_language, unit, paragraph_id) held by more than one row of a
-- version, which Compare versions therefore does not pair (see audit_build_overlap). Read only
-- when audit_overlap counts some. Params: $limit.
SELECT 'current' AS version, source_id, target_language, unit, paragraph_id, count(*) AS rows
FROM audit WHERE source_id IS NOT NULL
GROUP BY source_id, target_language, unit, paragraph_id HAVING count(*) > 1
UNION ALL
SELECT 'previous', source_id, target_language, unit, paragraph_id, count(*)
FROM audit_previous WHERE source_id IS NOT NULL
GROUP BY source_id, target_language, unit, paragraph_id HAVING count(*) > 1
ORDER BY version, unit, source_id, target_language, paragraph_id
LIMIT $limit
