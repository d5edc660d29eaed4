-- Every exact-copy row with the snapshot's candidate text (for triage hints), lowest score
-- first, written once per (audit file, snapshot file) by catalog.exact_copy_views as
-- `audit_exact_copies`: joining scattered rows to a large snapshot reads all of it, so it is done
-- once, not on every filter. The snapshot side of the join key may be NULL (absent). Params: none.
SELECT a.score, a.target_language, a.unit, any_value(s.candidate_text) AS candidate_text,
       a.judge_explanation, coalesce(a.score_origin, 'not recorded') AS score_origin,
       a.instance_id, a.paragraph_id, a.candidate_text_sha256, a.judge_record_id
FROM audit a
LEFT JOIN snapshot s
  ON s.instance_id = a.instance_id
 AND (s.target_language IS NULL OR s.target_language = a.target_language)
 AND (s.unit IS NULL OR s.unit = a.unit)
 AND (s.paragraph_id IS NULL OR s.paragraph_id = a.paragraph_id)
WHERE a.candidate_text_sha256 = a.source_text_sha256
GROUP BY ALL
ORDER BY a.score, a.judge_record_id
