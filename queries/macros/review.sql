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
-- review_group_match(filters…, row columns…): review_match without the score range, for the
-- binned counts (audit_bins), whose rows are bins, not scores. The same categorical rules as
-- review_match, kept beside it (review_match itself unchanged so the integer path is too).
CREATE MACRO review_group_match(languages, units, origins, run_groups, systems,
                                row_language, row_unit, row_origin, row_run_group, row_system) AS
    (len(languages) = 0 OR list_contains(languages, row_language))
    AND (len(units) = 0 OR list_contains(units, row_unit))
    AND (len(origins) = 0 OR list_contains(origins, coalesce(row_origin, 'not recorded')))
    AND (len(run_groups) = 0 OR list_contains(run_groups, coalesce(row_run_group, 'not recorded')))
    AND (len(systems) = 0 OR list_contains(systems, coalesce(row_system, 'not recorded')));
-- review_bin(x, grid…): the bin of a filter bound or key x on the audit-wide grid of audit_bins
-- (its width, lowest and highest score, first and last bin): below every score, the bin before
-- the first; above every score, the bin after the last (a sentinel such as 1e308 never
-- overflows the bin index); else score_bin(x, width), the bin a row of score x lies in.
CREATE MACRO review_bin(x, width, lo, hi, first_bin, last_bin) AS
    CASE WHEN x < lo THEN first_bin - 1 WHEN x > hi THEN last_bin + 1
         ELSE score_bin(x::DOUBLE, width) END;
-- review_min_bin / review_max_bin(x, grid…): the bin of a score range's lower / upper bound, as
-- review_bin, but a bound at or beyond every score (x <= lo, x >= hi) is outside the grid: every
-- row meets it, so no edge bin is left to count row by row. (A key or keyset bound equal to lo
-- or hi keeps its own bin: rows tied with it are not all on one side of it.)
CREATE MACRO review_min_bin(x, width, lo, hi, first_bin, last_bin) AS
    CASE WHEN x <= lo THEN first_bin - 1 ELSE review_bin(x, width, lo, hi, first_bin, last_bin) END;
CREATE MACRO review_max_bin(x, width, lo, hi, first_bin, last_bin) AS
    CASE WHEN x >= hi THEN last_bin + 1 ELSE review_bin(x, width, lo, hi, first_bin, last_bin) END;
