-- audit_facet(facet, facet columns…): the value of the facet column a summary splits by, the
-- column picked by the facet's name ('none', or any other name: NULL), never by text made an
-- identifier. One definition for audit_score_counts, audit_score_bins and
-- audit_score_counts_below.
CREATE MACRO audit_facet(facet, score_origin, run_group, source_split, dataset_version,
                         judge_prompt_version, requested_judge_model, system) AS
    CASE facet
        WHEN 'score_origin' THEN score_origin
        WHEN 'run_group' THEN run_group
        WHEN 'source_split' THEN source_split
        WHEN 'dataset_version' THEN dataset_version
        WHEN 'judge_prompt_version' THEN judge_prompt_version
        WHEN 'requested_judge_model' THEN requested_judge_model
        WHEN 'system' THEN system
        ELSE NULL
    END::VARCHAR;

-- score_bin(x, width): the bin m of score x on the grid of `width`, m·width <= x < (m+1)·width:
-- floor(x / width), moved by one where rounding put x beside its bin. One definition for
-- audit_build_score_bins and audit_build_order_stats.
CREATE MACRO score_bin(x, width) AS
    floor(x / width)::BIGINT - (x < floor(x / width) * width)::BIGINT
        + (x >= (floor(x / width) + 1) * width)::BIGINT;
