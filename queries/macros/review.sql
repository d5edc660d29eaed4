-- review_match(filters…, row columns…): whether an audit row (or a per-score count row) matches
-- the Review filters: languages, units, score origins, run groups, systems (an empty list = all)
-- and the score range; a missing origin, run group or system is 'not recorded'. One definition
-- for every audit_review_* query; DuckDB inlines it, so the score range still prunes row groups.
CREATE MACRO review_match(languages, units, origins, run_groups, systems, min_score, max_score,
                          row_language, row_unit, row_score, row_origin, row_run_group, row_system) AS
    (len(languages) = 0 OR list_contains(languages, row_language))
    AND (len(units) = 0 OR list_contains(units, row_unit))
    AND row_score BETWEEN min_score AND max_score
    AND (len(origins) = 0 OR list_contains(origins, coalesce(row_origin, 'not recorded')))
    AND (len(run_groups) = 0 OR list_contains(run_groups, coalesce(row_run_group, 'not recorded')))
    AND (len(systems) = 0 OR list_contains(systems, coalesce(row_system, 'not recorded')));
