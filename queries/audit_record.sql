-- One audit row with every schema column and its lineage. Params: $record_id.
-- The score comes from audit_record_index (sorted by id): DuckDB turns it into a filter on the
-- score-sorted audit, which then reads only the row groups holding that score.
SELECT judge_record_id, dataset_version, dataset_revision, instance_id, source_id, source_split,
       source_language,
       target_language, unit, paragraph_id, score, score_origin, judge_explanation,
       source_text_sha256, candidate_text_sha256, requested_judge_model, resolved_judge_revision,
       judge_prompt_version, judge_prompt_sha256, run_group, raw_artifact_sha256, raw_line_number,
       system, _file, _row
FROM audit
WHERE judge_record_id = $record_id
  AND score IN (SELECT score FROM audit_record_index WHERE judge_record_id = $record_id)
