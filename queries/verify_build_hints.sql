-- For each mismatched audit row (source, candidate or both): would its snapshot text match the
-- stored digest once NFC-normalised ('nfc'), or once trimmed of whitespace ('whitespace')? A hint,
-- never a pass; NULL when neither. Written once after `hash_verification_by_id` as the
-- `hash_verification_hints` view (integrity/verification_tables.py): only the few mismatched rows
-- are read from the table written, and their snapshot texts fetched by position, so the join's
-- millions of classified rows are streamed once, never kept and read again. A side that matched
-- (candidate_mismatch: the source did; source_mismatch: the candidate did) counts as matching.
-- Params: none.
SELECT h.judge_record_id,
       CASE WHEN (h.class = 'candidate_mismatch'
                  OR coalesce(sha256(nfc_normalize(t.source_text)) = h.stored_source_sha256, false))
             AND (h.class = 'source_mismatch'
                  OR coalesce(sha256(nfc_normalize(t.candidate_text)) = h.stored_candidate_sha256, false))
            THEN 'nfc'
            WHEN (h.class = 'candidate_mismatch'
                  OR coalesce(sha256(trim(t.source_text, ' ' || chr(9) || chr(10) || chr(11) || chr(12) || chr(13) || chr(160) || chr(12288))) = h.stored_source_sha256, false))
             AND (h.class = 'source_mismatch'
                  OR coalesce(sha256(trim(t.candidate_text, ' ' || chr(9) || chr(10) || chr(11) || chr(12) || chr(13) || chr(160) || chr(12288))) = h.stored_candidate_sha256, false))
            THEN 'whitespace'
       END AS hint
FROM hash_verification_by_id h
LEFT JOIN snapshot_numbered t ON t.file_row_number = h.snapshot_position
WHERE verify_is_mismatch(h.class)
ORDER BY h.judge_record_id
