-- Rows per score bin of one audit-wide grid, by language, unit, every facet column and whether
-- the explanation is missing, with each bin's n, Σx (total), Σx² (total_sq), lowest and highest
-- score: mean and SD stay exact and the bootstrap draws over the bins (stats._bins_plan). Built
-- once per revision at validation (ingest/build.py). Bin m holds the scores in [m·h, (m+1)·h)
-- (score_bin, queries/macros/audit.sql). Params: $width (h: stats._bin_width of the audit's
-- score range).
SELECT target_language, unit, score_origin, run_group, source_split, dataset_version,
       judge_prompt_version, requested_judge_model, system,
       (judge_explanation IS NULL) AS explanation_missing,
       score_bin(score::DOUBLE, $width) AS bin, $width::DOUBLE AS bin_width, count(*) AS n,
       fsum(score::DOUBLE) AS total, fsum(score::DOUBLE * score::DOUBLE) AS total_sq,
       min(score::DOUBLE) AS low, max(score::DOUBLE) AS high
FROM audit
GROUP BY ALL
ORDER BY ALL
