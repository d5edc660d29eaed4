-- The Distributions page's intervals of one facet other than none and target_language at its
-- default resamples and seed, computed when the page first reads them
-- (judgescope/audit/interval_tables.py, FACET_INTERVALS), in that facet's order.
-- Params: $facet (a facet column's name, compared as a value).
SELECT unit, facet, low, high, ci_method
FROM audit_facet_intervals
WHERE facet_name = $facet
ORDER BY position
