-- Units the audit and the earlier audit each scored once with the same judge (requested model
-- and prompt version) on the same texts (source and candidate SHA-256; NULL matches NULL):
-- both scores and record ids, for stability between the two runs. Params: none.
WITH cur AS (
    SELECT * FROM audit
    QUALIFY count(*) OVER (PARTITION BY instance_id, target_language, unit, paragraph_id) = 1
), prev AS (
    SELECT * FROM audit_previous
    QUALIFY count(*) OVER (PARTITION BY instance_id, target_language, unit, paragraph_id) = 1
)
SELECT concat_ws(' | ', coalesce(c.requested_judge_model, '(judge not recorded)'),
                 coalesce(CAST(c.instance_id AS VARCHAR), ''), c.target_language, c.unit,
                 coalesce(CAST(c.paragraph_id AS VARCHAR), '')) AS unit_key,
       c.score, p.score AS previous_score, c.judge_record_id,
       p.judge_record_id AS previous_record_id
FROM cur c
JOIN prev p
  ON c.instance_id IS NOT DISTINCT FROM p.instance_id
 AND c.target_language = p.target_language AND c.unit = p.unit
 AND c.paragraph_id IS NOT DISTINCT FROM p.paragraph_id
 AND c.requested_judge_model IS NOT DISTINCT FROM p.requested_judge_model
 AND c.judge_prompt_version IS NOT DISTINCT FROM p.judge_prompt_version
 AND c.source_text_sha256 IS NOT DISTINCT FROM p.source_text_sha256
 AND c.candidate_text_sha256 IS NOT DISTINCT FROM p.candidate_text_sha256
ORDER BY unit_key
