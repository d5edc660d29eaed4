-- The earlier audit's row for the unit of one audit record, paired as Compare versions and Drift
-- pair (source_id, else instance_id, never one with the other; target_language, unit,
-- paragraph_id; a key scored more than once in either run is not paired): its score, judge,
-- prompt, explanation (first 20,000 characters) and whether the texts are byte-identical (an
-- anchor). Params: $record_id.
WITH cur AS (
    SELECT *, source_id IS NULL AS by_instance, coalesce(source_id, instance_id) AS unit_id
    FROM audit WHERE judge_record_id = $record_id AND coalesce(source_id, instance_id) IS NOT NULL
), prev AS (
    SELECT *, source_id IS NULL AS by_instance, coalesce(source_id, instance_id) AS unit_id
    FROM audit_previous WHERE coalesce(source_id, instance_id) IS NOT NULL
    QUALIFY count(*) OVER (PARTITION BY by_instance, unit_id, target_language, unit, paragraph_id) = 1
)
SELECT p.judge_record_id, p.score, c.score - p.score AS diff, p.requested_judge_model,
       p.resolved_judge_revision, p.judge_prompt_version, p.judge_prompt_sha256,
       left(p.judge_explanation, 20000) AS judge_explanation,
       coalesce(c.source_text_sha256 = p.source_text_sha256
                AND c.candidate_text_sha256 = p.candidate_text_sha256, false) AS anchor,
       (SELECT count(*) FROM audit a WHERE (a.source_id IS NULL) = c.by_instance
          AND coalesce(a.source_id, a.instance_id) = c.unit_id
          AND a.target_language = c.target_language AND a.unit = c.unit
          AND a.paragraph_id IS NOT DISTINCT FROM c.paragraph_id) AS current_rows
FROM cur c
JOIN prev p
  ON p.by_instance = c.by_instance AND p.unit_id = c.unit_id AND p.target_language = c.target_language
 AND p.unit = c.unit AND p.paragraph_id IS NOT DISTINCT FROM c.paragraph_id
