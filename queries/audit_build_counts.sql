-- Rows per score and facet of the audit (language, unit, every facet column, whether the
-- explanation is missing), one row per distinct combination with its count n, sorted: the
-- per-score counts pages aggregate instead of the audit rows. Built once per revision at
-- validation (ingest/build.py write_counts) when grouping leaves at most half the rows
-- (audit_build_counts_estimate.sql); else audit_build_count_rows.sql writes them.
SELECT target_language, unit, score_origin, run_group, source_split, dataset_version,
       judge_prompt_version, requested_judge_model, system, score,
       (judge_explanation IS NULL) AS explanation_missing, count(*) AS n
FROM audit
GROUP BY ALL
ORDER BY ALL
