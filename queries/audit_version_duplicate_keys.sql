-- Pairing keys (source_id, else instance_id; target_language, unit, paragraph_id) held by more
-- than one row of a version, which Compare versions therefore does not pair (see
-- audit_build_overlap). Read only when audit_overlap counts some. Params: $limit.
WITH keyed AS (
    SELECT 'current' AS version, CASE WHEN source_id IS NOT NULL THEN 'source_id' ELSE 'instance_id' END AS paired_on,
           coalesce(source_id, instance_id) AS unit_id, target_language, unit, paragraph_id
    FROM audit WHERE coalesce(source_id, instance_id) IS NOT NULL
    UNION ALL
    SELECT 'previous', CASE WHEN source_id IS NOT NULL THEN 'source_id' ELSE 'instance_id' END,
           coalesce(source_id, instance_id), target_language, unit, paragraph_id
    FROM audit_previous WHERE coalesce(source_id, instance_id) IS NOT NULL
)
SELECT version, paired_on, unit_id, target_language, unit, paragraph_id, count(*) AS rows
FROM keyed
GROUP BY ALL HAVING count(*) > 1
ORDER BY version, unit, paired_on, unit_id, target_language, paragraph_id
LIMIT $limit
