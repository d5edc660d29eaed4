-- Explanations for Themes: language, unit, whether the row scored below $threshold (low) and
-- its explanation. At most $per_group rows per (language, low) are read, a deterministic sample
-- ordered by hash(judge_record_id). Params: $languages, $units (empty list = all), $threshold,
-- $per_group.
SELECT target_language, unit, score < $threshold AS low, judge_explanation
FROM audit
WHERE judge_explanation IS NOT NULL AND score IS NOT NULL
  AND (len($languages) = 0 OR list_contains($languages, target_language))
  AND (len($units) = 0 OR list_contains($units, unit))
QUALIFY row_number() OVER (PARTITION BY target_language, score < $threshold
                           ORDER BY hash(judge_record_id), judge_record_id) <= $per_group
ORDER BY target_language, unit, low
