-- Per run (the audit = 'current', the earlier audit = 'earlier'): its rows, those with neither a
-- source_id nor an instance_id (no unit key), and those in a unit key the run holds more than
-- once (audit_rerun_pairs.sql pairs only keys held once in each run), so that stability between
-- two runs can account for every row: paired, without a key, repeated within its run, or with
-- no unit of the same judge and texts in the other run. Params: none.
WITH keyed AS (
    SELECT 'current' AS run, CASE WHEN source_id IS NOT NULL THEN 'source_id' ELSE 'instance_id' END AS paired_on,
           coalesce(source_id, instance_id) AS unit_id, target_language, unit, paragraph_id
    FROM audit
    UNION ALL
    SELECT 'earlier', CASE WHEN source_id IS NOT NULL THEN 'source_id' ELSE 'instance_id' END,
           coalesce(source_id, instance_id), target_language, unit, paragraph_id
    FROM audit_previous
), counted AS (
    SELECT run, unit_id IS NULL AS unkeyed,
           unit_id IS NOT NULL
           AND count(*) OVER (PARTITION BY run, paired_on, unit_id, target_language, unit, paragraph_id) > 1 AS repeated
    FROM keyed
)
SELECT run, count(*) AS rows, count(*) FILTER (WHERE unkeyed) AS unkeyed_rows,
       count(*) FILTER (WHERE repeated) AS repeated_rows
FROM counted
GROUP BY run
ORDER BY run
