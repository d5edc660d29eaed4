-- The audit's rows and an estimate of how many rows audit_build_counts.sql would write (its
-- distinct combinations of score and facets, by HyperLogLog: within a few percent, 0.15 s at 10M
-- rows): ingest/build.py write_counts groups the counts when that leaves at most half the rows.
SELECT count(*) AS rows,
       approx_count_distinct(hash(target_language, unit, score_origin, run_group, source_split,
                                  dataset_version, judge_prompt_version, requested_judge_model,
                                  system, score, judge_explanation IS NULL)) AS groups
FROM audit
