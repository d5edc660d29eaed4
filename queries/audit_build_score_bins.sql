-- Rows per score bin of one audit-wide grid, by language, unit, every facet column and whether
-- the explanation is missing, with each bin's n, Σx (total), Σx² (total_sq), lowest and highest
-- score: mean and SD stay exact and the bootstrap draws over the bins (stats._bins_plan). Built
-- once per revision at validation (sources/build.py). Bin m holds the scores in [m·h, (m+1)·h):
-- floor(score / h), moved by one where rounding put a score beside its bin.
-- Params: $width (h: stats._bin_width of the audit's score range).
WITH s AS (
    SELECT *, score::DOUBLE AS x, floor(score::DOUBLE / $width)::BIGINT AS m FROM audit
)
SELECT target_language, unit, score_origin, run_group, source_split, dataset_version,
       judge_prompt_version, requested_judge_model, system,
       (judge_explanation IS NULL) AS explanation_missing,
       m - (x < m * $width)::BIGINT + (x >= (m + 1) * $width)::BIGINT AS bin,
       $width::DOUBLE AS bin_width,
       count(*) AS n, fsum(x) AS total, fsum(x * x) AS total_sq, min(x) AS low, max(x) AS high
FROM s
GROUP BY ALL
ORDER BY ALL
