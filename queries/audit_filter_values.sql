-- Rows per language, unit, score origin and run group: the values the filters offer. Params: none.
SELECT target_language, unit,
       coalesce(score_origin, 'not recorded') AS score_origin,
       coalesce(run_group, 'not recorded') AS run_group,
       count(*) AS n
FROM audit
GROUP BY ALL
ORDER BY target_language, unit, score_origin, run_group
