-- Exact copies (candidate hash = source hash) per language and unit, counted once per audit file
-- by record_tables.exact_copy_count_views as `audit_exact_copy_summary`. Params: none.
-- `hashed` counts rows carrying both hashes; an exact copy needs no text to be found.
SELECT target_language, unit, count(*) AS n,
       count(*) FILTER (WHERE source_text_sha256 IS NOT NULL AND candidate_text_sha256 IS NOT NULL)
           AS hashed,
       count(*) FILTER (WHERE candidate_text_sha256 = source_text_sha256) AS exact_copies
FROM audit
GROUP BY ALL
ORDER BY target_language, unit
