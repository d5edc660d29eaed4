-- Model evaluations with the vendors' annotations (JSON text), filtered. Params: $subsets, $systems (empty list = all).
SELECT _file AS file, _row AS row, idx, subset, system, source, translation, evaluation, annotations
FROM verification
WHERE (len($subsets) = 0 OR list_contains($subsets, subset))
  AND (len($systems) = 0 OR list_contains($systems, system))
ORDER BY subset, idx, _file, _row
