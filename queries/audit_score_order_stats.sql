-- Exact n, median, P5 and P10 per grouping set (audit_order_stats, written at validation): the
-- sets without a facet and, split by $facet, unit × its values (by_facet); with the audit's
-- distinct scores, which decide whether the pages read the binned or the per-score counts.
-- Params: $facet (none or a facet column's name, compared as a value, never an identifier).
SELECT by_language, by_unit, facet_column IS NOT NULL AS by_facet, target_language, unit, facet,
       n, median, p5, p10, distinct_scores
FROM audit_order_stats
WHERE facet_column IS NULL OR facet_column = $facet
ORDER BY by_facet, by_language, by_unit, target_language, unit, facet
