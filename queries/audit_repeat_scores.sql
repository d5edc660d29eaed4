-- Records of units one judge scored more than once (raw records, every run group), one row per
-- record: the unit's key, run group, record id and score. A unit is keyed as drift and Compare
-- versions key it (drift_pairs.sql): its source_id, else its instance_id (a source_id never
-- matches an instance_id of the same text: the key names which it is), with target_language,
-- unit and paragraph_id, per judge (requested model). Records with neither id belong to no unit:
-- they are left out here and counted by audit_repeat_unkeyed.sql, never grouped together as one
-- "unit" (they used to be, under an empty instance_id). Params: none.
WITH keyed AS (
    SELECT concat_ws(' | ', coalesce(requested_judge_model, '(judge not recorded)'),
                     CASE WHEN source_id IS NOT NULL THEN 'source_id ' || CAST(source_id AS VARCHAR)
                          ELSE 'instance_id ' || CAST(instance_id AS VARCHAR) END,
                     target_language, unit, coalesce(CAST(paragraph_id AS VARCHAR), '')) AS unit_key,
           run_group, judge_record_id, score
    FROM raw_records
    WHERE coalesce(source_id, instance_id) IS NOT NULL
)
SELECT unit_key, run_group, judge_record_id, score
FROM keyed
QUALIFY count(*) OVER (PARTITION BY unit_key) > 1
ORDER BY unit_key, run_group, judge_record_id
