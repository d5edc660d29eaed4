-- Which source languages each target language is translated from (labels read "Mandarin
-- Chinese → English" when an audit has more than one source language).
SELECT target_language, source_language, count(*) AS n
FROM audit
WHERE source_language IS NOT NULL
GROUP BY ALL
ORDER BY ALL
