-- Exact median, P5 and P10 of the scores (numpy's linear method: x[lo] + (h − lo)·(x[hi] − x[lo])
-- at h = (n − 1)·q) per grouping set a page shows: unit × each facet column, language × unit,
-- language, unit and the whole audit. Built once per revision at validation, after the binned
-- counts (audit_bins), which place each rank in its bin; a bin of one score gives it, any other
-- is ranked over its rows in the score-sorted file. No step holds every score of a group in
-- memory, as DuckDB's quantile aggregates would (they cannot spill): the build keeps its cap.
-- A NULL facet value is a group of its own: GROUPING() tells it from a column rolled up.
-- distinct_scores (the audit's, on every row) decides whether the pages read the binned or the
-- per-score counts. Params: $width (the bins' width).
WITH sets AS (
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
           bin, sum(n) AS n, min(low) AS low, max(high) AS high
    FROM audit_bins
    GROUP BY GROUPING SETS ((unit, score_origin, bin), (unit, run_group, bin), (unit, source_split, bin),
                            (unit, dataset_version, bin), (unit, judge_prompt_version, bin),
                            (unit, requested_judge_model, bin), (unit, system, bin),
                            (target_language, unit, bin), (target_language, bin), (unit, bin), (bin))
),
placed AS (  -- each group numbered, its rows, and the rows before each of its bins
    SELECT *, dense_rank() OVER (ORDER BY by_language, by_unit, facet_column, target_language,
                                          unit, facet) AS gid,
           sum(n) OVER (PARTITION BY by_language, by_unit, facet_column, target_language, unit, facet)
               AS rows,
           sum(n) OVER (PARTITION BY by_language, by_unit, facet_column, target_language, unit, facet
                        ORDER BY bin) - n AS before
    FROM sets
),
groups AS (
    SELECT DISTINCT gid, by_language, by_unit, facet_column, target_language, unit, facet, rows
    FROM placed
),
ranks AS (  -- the two 0-based ranks each percentile interpolates between
    SELECT g.gid, q.stat, h, CASE up WHEN 0 THEN floor(h) ELSE ceil(h) END::BIGINT AS rank
    FROM groups g
    CROSS JOIN (VALUES ('median', 0.5), ('p5', 0.05), ('p10', 0.1)) q(stat, f)
    CROSS JOIN (VALUES (0), (1)) side(up)
    CROSS JOIN LATERAL (SELECT (g.rows - 1)::DOUBLE * q.f::DOUBLE AS h)
),
targets AS (  -- the bin holding each rank, and the rank's place among the bin's rows
    SELECT r.gid, r.stat, r.h, r.rank, p.bin, r.rank - p.before AS k, p.low, p.high
    FROM ranks r JOIN placed p ON p.gid = r.gid AND r.rank >= p.before AND r.rank < p.before + p.n
),
wanted AS (  -- bins of more than one score holding a rank: their rows are ranked below
    SELECT DISTINCT g.*, t.bin
    FROM targets t JOIN groups g ON g.gid = t.gid
    WHERE t.low < t.high
),
picked AS (  -- a wanted bin's rows of its group, ranked by score
    SELECT w.gid, w.bin, a.score::DOUBLE AS x,
           row_number() OVER (PARTITION BY w.gid, w.bin ORDER BY a.score) - 1 AS k
    FROM audit a JOIN wanted w ON score_bin(a.score::DOUBLE, $width) = w.bin
        AND (NOT w.by_language OR a.target_language IS NOT DISTINCT FROM w.target_language)
        AND (NOT w.by_unit OR a.unit IS NOT DISTINCT FROM w.unit)
        AND (w.facet_column IS NULL
             OR audit_facet(w.facet_column, a.score_origin, a.run_group, a.source_split,
                            a.dataset_version, a.judge_prompt_version, a.requested_judge_model,
                            a.system) IS NOT DISTINCT FROM w.facet)
),
valued AS (  -- each rank's score: the one score of its bin, or its row's
    SELECT t.gid, t.stat, t.h, t.rank, coalesce(pk.x, t.low) AS x
    FROM targets t LEFT JOIN picked pk ON pk.gid = t.gid AND pk.bin = t.bin AND pk.k = t.k
),
percentiles AS (
    SELECT gid, stat, x_lo + (h - floor(h)) * (x_hi - x_lo) AS value
    FROM (SELECT gid, stat, any_value(h) AS h, min(x) FILTER (WHERE rank = floor(h)) AS x_lo,
                 min(x) FILTER (WHERE rank = ceil(h)) AS x_hi
          FROM valued GROUP BY gid, stat)
),
audit_scores AS (SELECT count(*) AS distinct_scores FROM (SELECT score FROM audit GROUP BY score))
SELECT g.by_language, g.by_unit, g.facet_column, g.target_language, g.unit, g.facet,
       g.rows::BIGINT AS n,
       max(s.value) FILTER (WHERE s.stat = 'median') AS median,
       max(s.value) FILTER (WHERE s.stat = 'p5') AS p5,
       max(s.value) FILTER (WHERE s.stat = 'p10') AS p10, d.distinct_scores
FROM groups g JOIN percentiles s ON s.gid = g.gid CROSS JOIN audit_scores d
GROUP BY ALL
ORDER BY facet_column, by_language, by_unit, target_language, unit, facet
