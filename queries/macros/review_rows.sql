-- review_tied(filters…, key_score, key_id, descending): of the audit rows matching the Review
-- filters (review_match) and tied on key_score, how many come before the key in the list's order
-- (by judge_record_id, the tiebreak) and whether the key is among them (`before`, `here`). The
-- equality on score prunes the score-sorted audit to a few row groups. One definition for
-- audit_review_rank_prebuilt and audit_review_rank_binned.
CREATE MACRO review_tied(languages, units, origins, run_groups, systems, min_score, max_score,
                         key_score, key_id, descending) AS TABLE
    SELECT count(*) FILTER (WHERE CASE WHEN descending THEN judge_record_id > key_id
                                       ELSE judge_record_id < key_id END) AS before,
           count(*) FILTER (WHERE judge_record_id = key_id) AS here
    FROM audit
    WHERE score = key_score
      AND review_match(languages, units, origins, run_groups, systems, min_score, max_score,
                       target_language, unit, score, score_origin, run_group, system);
