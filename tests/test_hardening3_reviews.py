"""Hardening, part 3: review state survives a damaged or read-only database and hostile
imports; reviewer statistics group rows by (dataset, record id)."""

import os

import pandas as pd
import pytest
from sklearn.metrics import cohen_kappa_score

from judgescope.cli import main as cli_main
from judgescope.reviews import verdict_stats as reviews_stats
from judgescope.reviews import database, log_files, verdict_log as reviews
from apptest import open_page


def _row(i=0, reviewer="ann", dataset="d", rid=None, verdict="judge_right", **kw):
    row = reviews.new_review(reviewer=reviewer, collection="c", dataset=dataset,
                             judge_record_id=rid or f"r{i}", verdict=verdict)
    row.update(kw)
    return row


# --- 3: a damaged or read-only reviews database ---------------------------------------------

# A database that can be read but not written is shown read-only (test_hardening4_pages).
@pytest.fixture(params=["random_bytes", "folder_is_a_file"])
def broken_state(request, tmp_path, monkeypatch):
    kind = request.param
    if kind == "random_bytes":
        path = tmp_path / "reviews.sqlite"
        path.write_bytes(os.urandom(8192))
    else:  # folder_is_a_file
        (tmp_path / "notafolder").write_text("x")
        path = tmp_path / "notafolder" / "reviews.sqlite"
    monkeypatch.setenv("JUDGESCOPE_STATE", str(path))
    monkeypatch.delenv("JUDGESCOPE_REVIEWS", raising=False)
    return path


def test_a_broken_database_is_named_in_one_sentence(broken_state):
    problem = database.unavailable(broken_state)
    assert problem and problem.startswith("Reviewing is unavailable")
    assert str(broken_state.parent) not in problem  # no server path
    with pytest.raises(database.ReviewStoreUnavailable):
        reviews.latest(broken_state)


@pytest.mark.parametrize("page", ["pages/review.py", "pages/exact_copies.py", "pages/reviews.py"])
def test_pages_that_review_say_so_and_keep_working(broken_state, page):
    at = open_page(page, "xhotpotqa")
    said = [m.value for m in [*at.warning, *at.info] if "Reviewing is unavailable" in m.value]
    assert len(said) == 1


def test_other_pages_work_with_a_broken_database(broken_state):
    at = open_page("pages/overview.py", "xhotpotqa")
    assert not at.exception


def test_reviews_cli_exits_2_with_the_reason(broken_state, capsys):
    assert cli_main(["reviews", "--state", str(broken_state), "summary"]) == 2
    err = capsys.readouterr().err
    assert "Reviewing is unavailable" in err and "Traceback" not in err


def test_a_working_database_is_available(tmp_path):
    assert database.unavailable(tmp_path / "fine.sqlite") is None


# --- 4: hostile imports ------------------------------------------------------------------------

def _log(**changes) -> pd.DataFrame:
    frame = pd.DataFrame([_row(0), _row(1)])
    for column, value in changes.items():
        frame.loc[1, column] = value
    return frame


@pytest.mark.parametrize("column, value, says", [
    ("tags", "not json {", "tags"),
    ("tags", '{"a": 1}', "list of strings"),
    ("tags", "[1, 2]", "list of strings"),
    ("created_at", "9999-12-31T00:00:00+00:00", "future"),
    ("created_at", "2025-02-30T00:00:00+00:00", "not an ISO 8601"),
    ("created_at", "yesterday", "not an ISO 8601"),
    ("reviewer", "alice\u200b", "invisible"),
    ("reviewer", "al\u202eice", "invisible"),
    ("reviewer", "ali\u00a0ce", "invisible"),
])
def test_hostile_import_fields_are_refused_naming_row_and_column(tmp_path, column, value, says):
    db = tmp_path / "r.sqlite"
    with pytest.raises(ValueError, match=f"row 1, column {column}: .*{says}"):
        log_files.import_frame(_log(**{column: value}), db, "shared.parquet")
    assert reviews.log(db).empty  # the whole file refused, nothing half-imported


def test_reviewer_names_are_nfc_normalised(tmp_path):
    db = tmp_path / "r.sqlite"
    decomposed, composed = "Jose\u0301", "Jos\u00e9"
    log_files.import_frame(_log(reviewer=decomposed), db)
    reviews.append(_row(2, reviewer=composed), db)
    assert set(reviews.log(db).reviewer) == {"ann", composed}
    with pytest.raises(ValueError, match="invisible"):
        reviews.new_review(reviewer="alice\u200b", collection="c", dataset="d",
                           judge_record_id="r", verdict="unsure")


def test_imported_times_are_stored_in_utc_and_sort(tmp_path):
    db = tmp_path / "r.sqlite"
    log_files.import_frame(_log(created_at="2025-01-01T02:00:00+02:00"), db)
    assert "2025-01-01T00:00:00.000000+00:00" in reviews.log(db).created_at.tolist()


def test_a_stored_bad_tags_text_does_not_crash_the_record_view():
    from judgescope.reviews import checks

    assert checks.shown_tags("not json") == [] and checks.shown_tags('["x"]') == ["x"]


# --- 10: reviews grouped by (dataset, record id) -----------------------------------------------

def _two_datasets() -> pd.DataFrame:
    pairs = [("d1", "r1", "judge_right", "judge_right"), ("d1", "r2", "too_harsh", "too_harsh"),
             ("d2", "r1", "judge_right", "too_harsh"), ("d2", "r3", "too_lenient", "too_lenient")]
    rows = []
    for ds, rid, a, b in pairs:
        rows += [_row(dataset=ds, rid=rid, reviewer="ann", verdict=a),
                 _row(dataset=ds, rid=rid, reviewer="bob", verdict=b)]
    return pd.DataFrame(rows), pairs


def test_reviewer_agreement_keeps_datasets_apart():
    latest, pairs = _two_datasets()
    got = reviews_stats.agreement(latest)
    # Independent reference: scikit-learn's Cohen's κ over the four (dataset, id) rows.
    expected = cohen_kappa_score([p[2] for p in pairs], [p[3] for p in pairs])
    assert got["rows"] == 4 and got["kappa"] == pytest.approx(expected)
    assert expected == pytest.approx(7 / 11)


def test_disagreements_keep_datasets_apart():
    latest, _ = _two_datasets()
    got = reviews_stats.disagreements(latest)
    assert got[["dataset", "judge_record_id"]].values.tolist() == [["d2", "r1"]]


def test_a_hostile_shared_log_is_refused_and_the_others_merge(tmp_path, monkeypatch):
    from judgescope.reviews import sharing

    monkeypatch.setattr(sharing, "REFUSED", [])
    shared = tmp_path / "shared"
    shared.mkdir()
    pd.DataFrame([_row(0, reviewer="bob")]).to_parquet(shared / "good.parquet")
    pd.DataFrame([_row(1, tags="not json")]).to_parquet(shared / "bad.parquet")
    db = tmp_path / "r.sqlite"
    assert sharing.pull(shared, db) == 1
    assert reviews.log(db).reviewer.tolist() == ["bob"]
    assert len(sharing.REFUSED) == 1 and "bad.parquet: row 0, column tags" in sharing.REFUSED[0]
