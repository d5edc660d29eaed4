-- Prompt version and hash, requested and resolved judge model, run group, per unit, from the
-- table built once per audit file (audit_build_model_provenance.sql). Params: none.
SELECT unit, run_group, n, requested_judge_model, resolved_judge_revision, judge_prompt_version,
       judge_prompt_sha256
FROM audit_model_provenance_summary
ORDER BY unit, run_group, judge_prompt_version
