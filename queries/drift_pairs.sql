-- Units scored once in each run (the earlier audit = old, the audit = new), paired on the key
-- of Compare versions (source_id, target_language, unit, paragraph_id; NULL paragraph_id one
-- value; a key scored more than once in a run is not paired): both scores, new minus old in
-- DECIMAL (equal decimal differences tie), both record ids and systems, and whether the unit is
-- an anchor (source and candidate SHA-256 recorded and equal in both runs). Params: none.
WITH new AS (
    SELECT * FROM audit WHERE source_id IS NOT NULL
    QUALIFY count(*) OVER (PARTITION BY source_id, target_language, unit, paragraph_id) = 1
), old AS (
    SELECT * FROM audit_previous WHERE source_id IS NOT NULL
    QUALIFY count(*) OVER (PARTITION BY source_id, target_language, unit, paragraph_id) = 1
)
SELECT n.source_id, n.target_language, n.unit, n.paragraph_id,
       o.score AS old_score, n.score AS new_score,
       (n.score::DECIMAL(38, 9) - o.score::DECIMAL(38, 9))::DOUBLE AS diff,
       coalesce(n.source_text_sha256 = o.source_text_sha256
                AND n.candidate_text_sha256 = o.candidate_text_sha256, false) AS anchor,
       o.judge_record_id AS old_record_id, n.judge_record_id AS new_record_id,
       o.system AS old_system, n.system AS new_system
FROM new n
JOIN old o
  ON o.source_id = n.source_id AND o.target_language = n.target_language AND o.unit = n.unit
 AND o.paragraph_id IS NOT DISTINCT FROM n.paragraph_id
ORDER BY n.target_language, n.unit, n.source_id, n.paragraph_id
