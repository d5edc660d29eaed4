-- The current text digests of the given audit rows, to tell which reviews were made on a row
-- that has since changed or gone. Params: $ids (judge_record_id list).
SELECT judge_record_id, source_text_sha256, candidate_text_sha256
FROM audit
WHERE list_contains($ids, judge_record_id)
