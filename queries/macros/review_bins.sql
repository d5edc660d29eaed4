-- review_edges(min_score, max_score, key): the audit-wide score grid of audit_bins (its bin
-- width, read from the bins, never assumed) with the bins of a Review score range's bounds
-- (review_min_bin, review_max_bin) and of a key score (review_bin; NULL for none). One
-- definition for audit_review_count_binned, audit_review_rank_binned and
-- audit_review_page_bound_binned, which count whole bins strictly between b_min and b_max.
CREATE MACRO review_edges(min_score, max_score, key_score) AS TABLE
    SELECT width, review_min_bin(min_score, width, lo, hi, first_bin, last_bin) AS b_min,
           review_max_bin(max_score, width, lo, hi, first_bin, last_bin) AS b_max,
           review_bin(key_score, width, lo, hi, first_bin, last_bin) AS b_key
    FROM (SELECT any_value(bin_width) AS width, min(low) AS lo, max(high) AS hi,
                 min(bin) AS first_bin, max(bin) AS last_bin
          FROM audit_bins);
-- review_inner_bins(filters…, min_score, max_score): the bins of audit_bins that match the Review
-- filters' categories (review_group_match) and lie strictly between the bins of the score
-- range's bounds, so wholly inside the range: summed whole by the three binned Review queries.
CREATE MACRO review_inner_bins(languages, units, origins, run_groups, systems, min_score, max_score) AS TABLE
    SELECT b.bin, b.n, b.low, b.high
    FROM audit_bins AS b, review_edges(min_score, max_score, NULL) AS e
    WHERE review_group_match(languages, units, origins, run_groups, systems,
                             b.target_language, b.unit, b.score_origin, b.run_group, b.system)
      AND b.bin > e.b_min AND b.bin < e.b_max;
