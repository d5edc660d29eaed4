-- Every audit row that is not verified: id, class and normalisation hint (no texts; the CLI's list).
-- Params: $key (join-key columns, a subset of verify.JOIN_COLUMNS).
SELECT judge_record_id, class, hint
FROM verify_classified($key)
WHERE class <> 'verified'
ORDER BY class, judge_record_id
