-- The Distributions page's intervals of one facet at its default resamples and seed, computed
-- once at the audit's first open (judgescope/audit/interval_tables.py), in that facet's order.
-- Params: $facet (none or a facet column's name, compared as a value).
SELECT unit, facet, low, high, ci_method
FROM audit_default_intervals
WHERE facet_name = $facet
ORDER BY position
