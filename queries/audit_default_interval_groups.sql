-- The stored default intervals of one facet with each group's mean and how it was drawn, for
-- `judgescope report` (judgescope/cli/commands/report.py) at the default resamples and seed.
-- Params: $facet (none or a facet column's name, compared as a value).
SELECT unit, facet, mean, low, high, method
FROM audit_default_intervals
WHERE facet_name = $facet
ORDER BY position
