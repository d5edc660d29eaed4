-- Rows of each run that drift cannot pair, having no unit key (see drift_pairs): neither a
-- source_id nor an instance_id. The first $limit of each run (by file and row),
-- each with its run's count of them. drift_read runs it only when some rows of a run were not in
-- any unit drift_pairs returned. Params: $limit.
WITH unkeyed AS (
    SELECT 'new' AS run, judge_record_id, _file, _row FROM audit
    WHERE coalesce(source_id, instance_id) IS NULL
    UNION ALL
    SELECT 'old', judge_record_id, _file, _row FROM audit_previous
    WHERE coalesce(source_id, instance_id) IS NULL
)
SELECT run, judge_record_id, _file AS file, _row AS row, count(*) OVER (PARTITION BY run) AS n_rows
FROM unkeyed
QUALIFY row_number() OVER (PARTITION BY run ORDER BY _file, _row) <= $limit
ORDER BY run, _file, _row
