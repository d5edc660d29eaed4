-- The per-score counts of an audit whose rows nearly all differ in score or facets (float
-- scores): one row per audit row with n = 1, in the audit's score order, which every reader sums
-- as it sums audit_build_counts.sql's rows. Grouping would leave about as many rows and its
-- sort is the cost (10M float rows: 11 s against 2.9 s for these); in score order, row groups
-- are pruned by score (a Review count reads the rows of its two edge bins). Built by
-- ingest/build.py write_counts when audit_build_counts_estimate.sql finds more groups than
-- half the rows.
SELECT target_language, unit, score_origin, run_group, source_split, dataset_version,
       judge_prompt_version, requested_judge_model, system, score,
       (judge_explanation IS NULL) AS explanation_missing, 1::BIGINT AS n
FROM audit
