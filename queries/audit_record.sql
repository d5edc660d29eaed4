-- One audit row with every schema column and its lineage. Params: $record_id.
-- Its explanation is cut to its first 20,000 characters (judgescope.bounded.SHOWN_CHARS), with the
-- whole one's size: a 50 MB explanation is not read into the page (audit_record_explanation is).
-- The score comes from audit_record_index (sorted by id): DuckDB turns it into a filter on the
-- score-sorted audit, which then reads only the row groups holding that score.
SELECT judge_record_id, dataset_version, dataset_revision, instance_id, source_id, source_split,
       source_language,
       target_language, unit, paragraph_id, score, score_origin, left(judge_explanation, 20000) AS judge_explanation,
       length(judge_explanation) AS judge_explanation_chars, strlen(judge_explanation) AS judge_explanation_bytes,
       source_text_sha256, candidate_text_sha256, requested_judge_model, resolved_judge_revision,
       judge_prompt_version, judge_prompt_sha256, run_group, raw_artifact_sha256, raw_line_number,
       system, _file, _row
FROM audit
WHERE judge_record_id = $record_id
  AND score IN (SELECT score FROM audit_record_index WHERE judge_record_id = $record_id)
