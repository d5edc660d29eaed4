-- Every audit row that is not verified: id, class and normalisation hint (no texts; the CLI's list).
SELECT judge_record_id, class, hint
FROM hash_verification
WHERE class <> 'verified'
ORDER BY class, judge_record_id
