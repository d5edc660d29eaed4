-- The families of the systems behind the two translations of every pair (column tgt_families, a list or its JSON text). Params: none.
-- Run only when rank_columns lists tgt_families.
SELECT _file AS file, _row AS row, tgt_families AS families
FROM ranking
ORDER BY _file, _row
