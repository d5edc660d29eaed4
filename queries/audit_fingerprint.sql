-- The audit's judge fingerprint: rows per unit and recorded judge (requested model, resolved
-- revision, prompt version and hash; NULL where not recorded). Params: none.
SELECT unit, requested_judge_model, resolved_judge_revision, judge_prompt_version,
       judge_prompt_sha256, count(*) AS n
FROM audit
GROUP BY ALL
ORDER BY ALL
