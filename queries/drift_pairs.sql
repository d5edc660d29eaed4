-- Units scored in each run (the earlier audit = old, the audit = new), paired on the unit's key:
-- (paired_on, unit_id, target_language, unit, paragraph_id; NULL paragraph_id one value), where
-- unit_id is the row's source_id (paired_on 'source_id') or, on a row without one, its
-- instance_id (paired_on 'instance_id': WMT-style audits key units by instance), as Compare
-- versions pairs (audit_build_overlap). A unit keyed by source_id never pairs with one keyed by
-- instance_id. Rows with neither id have no key: drift_read counts and lists them
-- (drift_unkeyed). target_language and unit are on every row (validation excludes a row without
-- them). Units only one run scored are
-- returned too, the other run's columns NULL (a FULL join), so that drift_read counts and lists
-- them: a row is paired, or counted as unpaired, never left out unseen.
-- A key a run scored more than once (repeated runs) keeps its lowest score and record id, with
-- `stable` false unless every repeat of it in both runs gave the same score: only a stable unit
-- can count as moved. Per unit: both scores, new minus old in DECIMAL (equal decimal differences
-- tie), both record ids, the rows each run holds for it, and whether it is an anchor
-- (source and candidate SHA-256 recorded on every row and one value each, equal in both runs).
-- "One value" within a run is tested as min = max of the digests' 64-bit hash, so that a group
-- holds one digest text (the min, compared exactly across the runs) and two integers per column:
-- a DISTINCT count over 10M keys did not fit DuckDB's memory bound, and min = max of the texts
-- held three texts a group, a 1M-pair bucket at 10M rows then running out of it now and then.
-- Two different digests recorded for one unit in one run count as one only if their hashes
-- collide (about 1 in 2^64).
-- One bucket of the keys per query: the keys whose hash modulo $buckets is $bucket, so that the
-- grouping and the join hold one bucket at a time (audit/drift_read.py chooses the count from the
-- runs' rows; one bucket is every key). The key's columns are VARCHAR in every validated audit
-- (ingest/validate.clean_select), so a key hashes alike in both runs; the modulo is taken in
-- UBIGINT, hash()'s type (bound as a plain integer, DuckDB took it in HUGEINT: 2.8 s of a
-- 1M-pair bucket's 7.4 s went into that filter). Rows in no particular order: the statistics do not depend
-- on it (tests/test_drift.py), and each bucket's own sort was work no reader used.
-- One aggregation for both runs (rows tagged by run; the columns are named, as extra columns of
-- either file may not combine), NOT MATERIALIZED so that each side of the join keeps only its
-- run's rows before grouping: two groupings of one run each, as fast as two CTEs, where one
-- grouping of both runs (twice the groups) took about 1.7 times as long.
-- Params: $buckets (≥ 1), $bucket (0 … $buckets − 1).
WITH keyed AS NOT MATERIALIZED (
    SELECT run, CASE WHEN source_id IS NOT NULL THEN 'source_id' ELSE 'instance_id' END AS paired_on,
           coalesce(source_id, instance_id) AS unit_id, target_language, unit, paragraph_id, score,
           judge_record_id, source_text_sha256, candidate_text_sha256
    FROM (SELECT 'new' AS run, source_id, instance_id, target_language, unit, paragraph_id, score, judge_record_id,
                 source_text_sha256, candidate_text_sha256 FROM audit
          UNION ALL BY NAME
          SELECT 'old' AS run, source_id, instance_id, target_language, unit, paragraph_id, score, judge_record_id,
                 source_text_sha256, candidate_text_sha256 FROM audit_previous)
    WHERE coalesce(source_id, instance_id) IS NOT NULL
), units AS NOT MATERIALIZED (
    SELECT run, paired_on, unit_id, target_language, unit, paragraph_id, count(*) AS k, min(score) AS score,
           max(score) AS score_max, min(judge_record_id) AS judge_record_id,
           CASE WHEN count(source_text_sha256) = count(*) AND min(hash(source_text_sha256)) = max(hash(source_text_sha256))
                THEN min(source_text_sha256) END AS source_sha,
           CASE WHEN count(candidate_text_sha256) = count(*) AND min(hash(candidate_text_sha256)) = max(hash(candidate_text_sha256))
                THEN min(candidate_text_sha256) END AS candidate_sha
    FROM keyed
    WHERE hash(paired_on, unit_id, target_language, unit, paragraph_id) % $buckets::UBIGINT = $bucket::UBIGINT
    GROUP BY run, paired_on, unit_id, target_language, unit, paragraph_id
)
SELECT coalesce(n.paired_on, o.paired_on) AS paired_on, coalesce(n.unit_id, o.unit_id) AS unit_id,
       coalesce(n.target_language, o.target_language) AS target_language, coalesce(n.unit, o.unit) AS unit,
       coalesce(n.paragraph_id, o.paragraph_id) AS paragraph_id,
       o.score AS old_score, n.score AS new_score,
       (n.score::DECIMAL(38, 9) - o.score::DECIMAL(38, 9))::DOUBLE AS diff,
       coalesce(n.source_sha = o.source_sha AND n.candidate_sha = o.candidate_sha, false) AS anchor,
       coalesce(n.score = n.score_max AND o.score = o.score_max, false) AS stable,
       coalesce(o.k, 0) AS old_rows, coalesce(n.k, 0) AS new_rows,
       o.judge_record_id AS old_record_id, n.judge_record_id AS new_record_id
FROM (SELECT * FROM units WHERE run = 'new') n
FULL JOIN (SELECT * FROM units WHERE run = 'old') o
  ON o.paired_on = n.paired_on AND o.unit_id = n.unit_id AND o.target_language = n.target_language
 AND o.unit = n.unit AND o.paragraph_id IS NOT DISTINCT FROM n.paragraph_id
