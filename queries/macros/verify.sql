-- Table macros of the hash verification, created on the connection that materialises it once per
-- (audit file, snapshot file, join key) (integrity/verification_tables.py); snapshot_numbered is the
-- snapshot with file_row_number. `key` is the list of join-key columns (a subset of
-- join_key.JOIN_COLUMNS); the other key columns are NULL on both sides.
-- verify_keyed_audit(key): audit rows (id and score) with their stored hashes (normalised once, at validation:
-- lower-case, trimmed, as Review and Exact copies compare them) and key parts.
CREATE MACRO verify_keyed_audit(key) AS TABLE

    SELECT judge_record_id, score, target_language, unit, paragraph_id,
           source_text_sha256 AS stored_source_sha256,
           candidate_text_sha256 AS stored_candidate_sha256,
           CASE WHEN list_contains(key, 'instance_id') THEN instance_id END AS k1,
           CASE WHEN list_contains(key, 'source_id') THEN source_id END AS k2,
           CASE WHEN list_contains(key, 'target_language') THEN target_language END AS k3,
           CASE WHEN list_contains(key, 'unit') THEN unit END AS k4,
           CASE WHEN list_contains(key, 'paragraph_id') THEN paragraph_id END AS k5
    FROM audit;

-- verify_keyed_snapshot(key): every snapshot row with its key parts and stored digests (the texts'
-- digests were computed once when the snapshot was validated, catalog.SNAPSHOT_DIGESTS, so no
-- text is read here); file_row_number is its position in the clean file (unique, where a nested
-- snapshot's _file/_row lineage is its instance's and so is shared). The digests are their 32
-- bytes (BLOB), not their 64 hex characters: they ride in the join's hash table, and at 10M rows
-- the join took 25.4–25.9 s against 27.5–31.3 s with the hex (the same rows written either way).
CREATE MACRO verify_keyed_snapshot(key) AS TABLE

    SELECT file_row_number, unhex(source_sha256_computed) AS source_sha256,
           unhex(candidate_sha256_computed) AS candidate_sha256,
           CASE WHEN list_contains(key, 'instance_id') THEN instance_id END AS k1,
           CASE WHEN list_contains(key, 'source_id') THEN source_id END AS k2,
           CASE WHEN list_contains(key, 'target_language') THEN target_language END AS k3,
           CASE WHEN list_contains(key, 'unit') THEN unit END AS k4,
           CASE WHEN list_contains(key, 'paragraph_id') THEN paragraph_id END AS k5
    FROM snapshot_numbered;

-- verify_repeated_keys(key): the snapshot keys held by more than one row (usually none), with
-- their row count and their first row's position as the key's one representative. Found by an
-- aggregate of the keys alone: grouping every row with its two 64-digit digests cost five times
-- as much at 10M rows (10.4 s against 2.1 s), and a unique key needs no group at all.
CREATE MACRO verify_repeated_keys(key) AS TABLE

    SELECT k1, k2, k3, k4, k5, count(*) AS snapshot_rows, min(file_row_number) AS snapshot_position
    FROM verify_keyed_snapshot(key)  -- its digest columns are not read: only the keys are grouped
    GROUP BY k1, k2, k3, k4, k5
    HAVING count(*) > 1;

-- verify_classified(key): every audit row joined to the snapshot and classified. Streamed, not
-- materialised: the few mismatched rows' normalisation hints are found afterwards from the
-- written table (verify_build_hints.sql), so the 10M classified rows are not kept a second time
-- and read twice. A verified row's four hashes equal the snapshot row's stored digests and are
-- not kept.
CREATE MACRO verify_classified(key) AS TABLE
WITH keyed_audit AS (FROM verify_keyed_audit(key)),
repeated AS MATERIALIZED (FROM verify_repeated_keys(key)),
-- The rows of keys held once: a repeated key's rows are left out, so an audit row meets at most
-- one snapshot row here, and a repeated key only through `repeated`.
unique_snapshot AS (
    SELECT * FROM verify_keyed_snapshot(key) s
    ANTI JOIN repeated r
      ON s.k1 IS NOT DISTINCT FROM r.k1 AND s.k2 IS NOT DISTINCT FROM r.k2
     AND s.k3 IS NOT DISTINCT FROM r.k3 AND s.k4 IS NOT DISTINCT FROM r.k4
     AND s.k5 IS NOT DISTINCT FROM r.k5
),
joined AS (
    -- Null key parts match null (a question has no paragraph_id on either side). A repeated
    -- key's digests are not compared (the row is ambiguous), as before.
    SELECT a.*,
           coalesce(r.snapshot_rows, CASE WHEN s.file_row_number IS NOT NULL THEN 1 END) AS snapshot_rows,
           coalesce(r.snapshot_position, s.file_row_number) AS snapshot_position,
           s.source_sha256, s.candidate_sha256,
           -- A stored digest is lower-case hex once validated, so its bytes are equal exactly when
           -- its text equals the snapshot's hex digest; one that is not hex (try: NULL) or not 32
           -- bytes long matches nothing.
           coalesce(try(unhex(a.stored_source_sha256)) = s.source_sha256, false) AS source_ok,
           coalesce(try(unhex(a.stored_candidate_sha256)) = s.candidate_sha256, false) AS candidate_ok
    FROM keyed_audit a
    LEFT JOIN unique_snapshot s
      ON a.k1 IS NOT DISTINCT FROM s.k1 AND a.k2 IS NOT DISTINCT FROM s.k2
     AND a.k3 IS NOT DISTINCT FROM s.k3 AND a.k4 IS NOT DISTINCT FROM s.k4
     AND a.k5 IS NOT DISTINCT FROM s.k5
    LEFT JOIN repeated r
      ON a.k1 IS NOT DISTINCT FROM r.k1 AND a.k2 IS NOT DISTINCT FROM r.k2
     AND a.k3 IS NOT DISTINCT FROM r.k3 AND a.k4 IS NOT DISTINCT FROM r.k4
     AND a.k5 IS NOT DISTINCT FROM r.k5
),
labelled AS (
    SELECT *, CASE WHEN snapshot_rows IS NULL THEN 'missing'
                   WHEN snapshot_rows > 1 THEN 'ambiguous'
                   WHEN source_ok AND candidate_ok THEN 'verified'
                   WHEN candidate_ok THEN 'source_mismatch'
                   WHEN source_ok THEN 'candidate_mismatch'
                   ELSE 'both_mismatch' END AS class
    FROM joined
),
classified AS (
    SELECT judge_record_id, score, target_language, unit, paragraph_id, snapshot_rows, snapshot_position,
           source_ok, candidate_ok, class,
           CASE WHEN class <> 'verified' THEN stored_source_sha256 END AS stored_source_sha256,
           CASE WHEN class <> 'verified' THEN stored_candidate_sha256 END AS stored_candidate_sha256,
           CASE WHEN class <> 'verified' THEN lower(hex(source_sha256)) END AS source_sha256,
           CASE WHEN class <> 'verified' THEN lower(hex(candidate_sha256)) END AS candidate_sha256
    FROM labelled
)
SELECT * FROM classified;

-- verify_is_mismatch(class): whether a row's class is one of the three digest mismatches (the
-- rows that have a normalisation hint, verify_build_hints.sql; the summary probes only those).
CREATE MACRO verify_is_mismatch(class) AS
    class IN ('source_mismatch', 'candidate_mismatch', 'both_mismatch');
