-- How many snapshot rows match one audit row's key values, matched as audit_record_texts does
-- (a NULL snapshot key column does not constrain). Read only when that query finds more than
-- one, to say how many. Params: $instance_id, $target_language, $unit, $paragraph_id.
SELECT count(*) AS matches
FROM snapshot
WHERE instance_id = $instance_id
  AND (target_language IS NULL OR target_language = $target_language)
  AND (unit IS NULL OR unit = $unit)
  AND (paragraph_id IS NULL OR paragraph_id = $paragraph_id)
