-- Exact-copy rows with score and explanation, lowest score first. Params: $languages, $units
-- (empty list = all), $limit.
SELECT score, target_language, unit, judge_explanation,
       coalesce(score_origin, 'not recorded') AS score_origin, instance_id, paragraph_id,
       candidate_text_sha256, judge_record_id
FROM audit
WHERE candidate_text_sha256 = source_text_sha256
  AND (len($languages) = 0 OR list_contains($languages, target_language))
  AND (len($units) = 0 OR list_contains($units, unit))
ORDER BY score, judge_record_id
LIMIT $limit
