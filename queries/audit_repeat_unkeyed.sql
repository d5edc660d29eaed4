-- Raw records with neither a source_id nor an instance_id: no unit key (audit_repeat_scores.sql),
-- so they cannot be repeats of any unit. Their count and the first $limit record ids (by id), for
-- the stability statistics to say what they left out. Params: $limit.
SELECT count(*) AS rows,
       coalesce(list(judge_record_id ORDER BY judge_record_id)[1:$limit], []) AS listed
FROM raw_records
WHERE source_id IS NULL AND instance_id IS NULL
