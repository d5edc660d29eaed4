-- Exact-copy rows with score, explanation and (when the collection has a snapshot) the
-- candidate text, lowest score first, from the rows built once (audit_build_exact_copies*.sql).
-- Params: $languages, $units (empty list = all), $limit.
SELECT score, target_language, unit, candidate_text, judge_explanation, score_origin,
       instance_id, paragraph_id, candidate_text_sha256, judge_record_id
FROM audit_exact_copies
WHERE (len($languages) = 0 OR list_contains($languages, target_language))
  AND (len($units) = 0 OR list_contains($units, unit))
ORDER BY score, judge_record_id
LIMIT $limit
