-- review_match(filters…, row columns…): whether an audit row (or a per-score count row) matches
-- the Review filters: languages, units, score origins, run groups (an empty list = all) and the
-- score range; a missing origin or run group is 'not recorded'. One definition for every
-- audit_review_* query; DuckDB inlines it, so the score range still prunes row groups.
CREATE MACRO review_match(languages, units, origins, run_groups, min_score, max_score,
                          row_language, row_unit, row_score, row_origin, row_run_group) AS
    (len(languages) = 0 OR list_contains(languages, row_language))
    AND (len(units) = 0 OR list_contains(units, row_unit))
    AND row_score BETWEEN min_score AND max_score
    AND (len(origins) = 0 OR list_contains(origins, coalesce(row_origin, 'not recorded')))
    AND (len(run_groups) = 0 OR list_contains(run_groups, coalesce(row_run_group, 'not recorded')));
