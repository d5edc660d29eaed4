-- Rows per score origin and unit, with how many lack an explanation (prebuilt counts).
-- Params: none.
SELECT coalesce(score_origin, 'not recorded') AS score_origin, unit,
       sum(n)::BIGINT AS n,
       coalesce(sum(n) FILTER (WHERE explanation_missing), 0)::BIGINT AS missing_explanation
FROM audit_counts
GROUP BY ALL
ORDER BY n DESC, score_origin, unit
