-- Rows per score origin and unit, with how many lack an explanation. Params: none.
SELECT coalesce(score_origin, 'not recorded') AS score_origin, unit,
       count(*) AS n,
       count(*) FILTER (WHERE judge_explanation IS NULL OR trim(judge_explanation) = '')
           AS missing_explanation
FROM audit
GROUP BY ALL
ORDER BY n DESC, score_origin, unit
