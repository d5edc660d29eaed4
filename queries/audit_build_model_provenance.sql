-- Prompt version and hash, requested and resolved judge model, run group, per unit: a scan of
-- every audit row, done once per audit file by record_tables.provenance_views. Params: none.
SELECT unit, coalesce(run_group, 'not recorded') AS run_group, count(*) AS n,
       coalesce(requested_judge_model, 'not recorded') AS requested_judge_model,
       coalesce(resolved_judge_revision, 'not recorded') AS resolved_judge_revision,
       coalesce(judge_prompt_version, 'not recorded') AS judge_prompt_version,
       coalesce(judge_prompt_sha256, 'not recorded') AS judge_prompt_sha256
FROM audit
GROUP BY ALL
ORDER BY unit, run_group, judge_prompt_version
