-- The earlier audit's row for the unit of one audit record, paired as Compare versions and Drift
-- pair (source_id, target_language, unit, paragraph_id; a key scored more than once in either run
-- is not paired): its score, judge, prompt, explanation (first 20,000 characters) and whether the
-- texts are byte-identical (an anchor). Params: $record_id.
WITH cur AS (
    SELECT * FROM audit WHERE judge_record_id = $record_id AND source_id IS NOT NULL
), prev AS (
    SELECT * FROM audit_previous WHERE source_id IS NOT NULL
    QUALIFY count(*) OVER (PARTITION BY source_id, target_language, unit, paragraph_id) = 1
)
SELECT p.judge_record_id, p.score, c.score - p.score AS diff, p.requested_judge_model,
       p.resolved_judge_revision, p.judge_prompt_version, p.judge_prompt_sha256,
       left(p.judge_explanation, 20000) AS judge_explanation,
       coalesce(c.source_text_sha256 = p.source_text_sha256
                AND c.candidate_text_sha256 = p.candidate_text_sha256, false) AS anchor,
       (SELECT count(*) FROM audit a WHERE a.source_id = c.source_id
          AND a.target_language = c.target_language AND a.unit = c.unit
          AND a.paragraph_id IS NOT DISTINCT FROM c.paragraph_id) AS current_rows
FROM cur c
JOIN prev p
  ON p.source_id = c.source_id AND p.target_language = c.target_language AND p.unit = c.unit
 AND p.paragraph_id IS NOT DISTINCT FROM c.paragraph_id
