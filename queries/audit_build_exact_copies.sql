-- Every exact-copy row (candidate hash = source hash), lowest score first, written once per
-- audit file by record_tables.exact_copy_views as `audit_exact_copies` when the collection has no
-- snapshot (candidate_text is then NULL; audit_build_exact_copies_texts.sql fills it). Params: none.
SELECT score, target_language, unit, NULL::VARCHAR AS candidate_text, judge_explanation,
       coalesce(score_origin, 'not recorded') AS score_origin, instance_id, paragraph_id,
       candidate_text_sha256, judge_record_id
FROM audit
WHERE candidate_text_sha256 = source_text_sha256
ORDER BY score, judge_record_id
