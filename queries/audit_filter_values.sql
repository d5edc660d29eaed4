-- Rows per language, unit, score origin, run group and system: the values the filters offer
-- (prebuilt counts). Params: none.
SELECT target_language, unit,
       coalesce(score_origin, 'not recorded') AS score_origin,
       coalesce(run_group, 'not recorded') AS run_group,
       coalesce(system, 'not recorded') AS system,
       sum(n)::BIGINT AS n
FROM audit_counts
GROUP BY ALL
ORDER BY target_language, unit, score_origin, run_group, system
