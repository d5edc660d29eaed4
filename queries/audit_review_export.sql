-- Every audit row matching the Review filters, for export (exactly the filtered rows).
-- Params: $languages, $units, $origins, $run_groups (empty list = all), $min_score, $max_score,
-- $q (plain text searched in explanations, case-insensitive; '' = no search).
SELECT judge_record_id, dataset_version, dataset_revision, instance_id, source_id, source_split,
       target_language, unit, paragraph_id, score, score_origin, judge_explanation,
       source_text_sha256, candidate_text_sha256, requested_judge_model, resolved_judge_revision,
       judge_prompt_version, judge_prompt_sha256, run_group, raw_artifact_sha256, raw_line_number
FROM audit
WHERE (len($languages) = 0 OR list_contains($languages, target_language))
  AND (len($units) = 0 OR list_contains($units, unit))
  AND score BETWEEN $min_score AND $max_score
  AND (len($origins) = 0 OR list_contains($origins, coalesce(score_origin, 'not recorded')))
  AND (len($run_groups) = 0 OR list_contains($run_groups, coalesce(run_group, 'not recorded')))
  AND ($q = '' OR contains(lower(coalesce(judge_explanation, '')), lower($q)))
ORDER BY score, judge_record_id
