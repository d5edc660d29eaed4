-- Exact median, P5 and P10 of the scores (linear interpolation between order statistics,
-- numpy's default; DuckDB's quantile_cont) per grouping set a page shows: unit × each facet
-- column, language × unit, language, unit and the whole audit. Built once per revision at
-- validation beside the binned counts, which cannot give them. A NULL facet value is a group
-- of its own: GROUPING() tells it from a column rolled up. distinct_scores (the audit's, on
-- every row) decides whether the pages read the binned or the per-score counts. Params: none.
WITH q AS (
    SELECT GROUPING(target_language) = 0 AS by_language, GROUPING(unit) = 0 AS by_unit,
           CASE 0
               WHEN GROUPING(score_origin) THEN 'score_origin'
               WHEN GROUPING(run_group) THEN 'run_group'
               WHEN GROUPING(source_split) THEN 'source_split'
               WHEN GROUPING(dataset_version) THEN 'dataset_version'
               WHEN GROUPING(judge_prompt_version) THEN 'judge_prompt_version'
               WHEN GROUPING(requested_judge_model) THEN 'requested_judge_model'
               WHEN GROUPING(system) THEN 'system'
           END AS facet_column,
           target_language, unit,
           CASE 0
               WHEN GROUPING(score_origin) THEN score_origin
               WHEN GROUPING(run_group) THEN run_group
               WHEN GROUPING(source_split) THEN source_split
               WHEN GROUPING(dataset_version) THEN dataset_version
               WHEN GROUPING(judge_prompt_version) THEN judge_prompt_version
               WHEN GROUPING(requested_judge_model) THEN requested_judge_model
               WHEN GROUPING(system) THEN system
           END::VARCHAR AS facet,
           count(*) AS n, quantile_cont(score::DOUBLE, [0.5, 0.05, 0.1]) AS q
    FROM audit
    GROUP BY GROUPING SETS ((unit, score_origin), (unit, run_group), (unit, source_split),
                            (unit, dataset_version), (unit, judge_prompt_version),
                            (unit, requested_judge_model), (unit, system),
                            (target_language, unit), (target_language), (unit), ())
)
SELECT by_language, by_unit, facet_column, target_language, unit, facet, n,
       q[1] AS median, q[2] AS p5, q[3] AS p10,
       (SELECT count(DISTINCT score) FROM audit) AS distinct_scores
FROM q
ORDER BY facet_column, by_language, by_unit, target_language, unit, facet
