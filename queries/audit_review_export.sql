-- Every audit row matching the Review filters, for export (exactly the filtered rows).
-- Params: $languages, $units, $origins, $run_groups, $systems (empty list = all), $min_score, $max_score,
-- $q (plain text searched in explanations, case-insensitive; '' = no search).
SELECT judge_record_id, dataset_version, dataset_revision, instance_id, source_id, source_split,
       target_language, unit, paragraph_id, score, score_origin, judge_explanation,
       source_text_sha256, candidate_text_sha256, requested_judge_model, resolved_judge_revision,
       judge_prompt_version, judge_prompt_sha256, run_group, system, raw_artifact_sha256,
       raw_line_number
FROM audit
WHERE review_match($languages, $units, $origins, $run_groups, $systems, $min_score, $max_score,
                   target_language, unit, score, score_origin, run_group, system)
  AND ($q = '' OR contains(lower(coalesce(judge_explanation, '')), lower($q)))
ORDER BY score, judge_record_id
