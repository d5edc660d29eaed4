-- The audit's scored rows without a blind label, and how many the judge passes (score at or
-- above the threshold): the unlabelled side of the blind calibration (issue 43 item 6).
-- Params: $ids (blind-labelled judge_record_id list), $threshold.
SELECT count(*) AS n, count(*) FILTER (WHERE score >= $threshold) AS passes
FROM audit
WHERE score IS NOT NULL AND NOT list_contains($ids, judge_record_id)
