-- The Distributions page's intervals of facet none or target_language at its default resamples
-- and seed, computed once at the audit's first open (judgescope/audit/interval_tables.py,
-- DEFAULT_INTERVALS; the other facets are in audit_facet_intervals), in that facet's order.
-- Params: $facet (none or target_language, compared as a value).
SELECT unit, facet, low, high, ci_method
FROM audit_default_intervals
WHERE facet_name = $facet
ORDER BY position
