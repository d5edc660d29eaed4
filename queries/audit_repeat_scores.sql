-- Records of units one judge scored more than once (raw records, every run group), one row per
-- record: the unit's key (judge, instance, language, unit, paragraph), run group, record id and
-- score. Params: none.
WITH keyed AS (
    SELECT concat_ws(' | ', coalesce(requested_judge_model, '(judge not recorded)'),
                     coalesce(CAST(instance_id AS VARCHAR), ''), target_language, unit,
                     coalesce(CAST(paragraph_id AS VARCHAR), '')) AS unit_key,
           run_group, judge_record_id, score
    FROM raw_records
)
SELECT unit_key, run_group, judge_record_id, score
FROM keyed
QUALIFY count(*) OVER (PARTITION BY unit_key) > 1
ORDER BY unit_key, run_group, judge_record_id
