-- Units the audit and the earlier audit each scored once with the same judge (requested model
-- and prompt version) on the same texts (source and candidate SHA-256; NULL matches NULL):
-- both scores and record ids, for stability between the two runs. A unit is keyed as drift keys
-- it (drift_pairs.sql): its source_id, else its instance_id (never one against the other), with
-- target_language, unit and paragraph_id (NULL matches NULL). Rows with neither id, and rows of a
-- key a run holds more than once, are not paired: audit_rerun_counts.sql counts them per run.
-- Params: none.
WITH cur AS (
    SELECT *, CASE WHEN source_id IS NOT NULL THEN 'source_id' ELSE 'instance_id' END AS paired_on,
           coalesce(source_id, instance_id) AS unit_id
    FROM audit
    WHERE coalesce(source_id, instance_id) IS NOT NULL
    QUALIFY count(*) OVER (PARTITION BY paired_on, unit_id, target_language, unit, paragraph_id) = 1
), prev AS (
    SELECT *, CASE WHEN source_id IS NOT NULL THEN 'source_id' ELSE 'instance_id' END AS paired_on,
           coalesce(source_id, instance_id) AS unit_id
    FROM audit_previous
    WHERE coalesce(source_id, instance_id) IS NOT NULL
    QUALIFY count(*) OVER (PARTITION BY paired_on, unit_id, target_language, unit, paragraph_id) = 1
)
SELECT concat_ws(' | ', coalesce(c.requested_judge_model, '(judge not recorded)'),
                 c.paired_on || ' ' || CAST(c.unit_id AS VARCHAR), c.target_language, c.unit,
                 coalesce(CAST(c.paragraph_id AS VARCHAR), '')) AS unit_key,
       c.score, p.score AS previous_score, c.judge_record_id,
       p.judge_record_id AS previous_record_id
FROM cur c
JOIN prev p
  ON c.paired_on = p.paired_on AND c.unit_id = p.unit_id
 AND c.target_language = p.target_language AND c.unit = p.unit
 AND c.paragraph_id IS NOT DISTINCT FROM p.paragraph_id
 AND c.requested_judge_model IS NOT DISTINCT FROM p.requested_judge_model
 AND c.judge_prompt_version IS NOT DISTINCT FROM p.judge_prompt_version
 AND c.source_text_sha256 IS NOT DISTINCT FROM p.source_text_sha256
 AND c.candidate_text_sha256 IS NOT DISTINCT FROM p.candidate_text_sha256
ORDER BY unit_key
