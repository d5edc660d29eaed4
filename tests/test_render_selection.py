"""A selectable table's key follows its rows (judgescope.web.render.selection_key / opened_in):
Streamlit keeps a selection, a row position, for as long as a key lives, so the key must change
whenever the rows a position points at could."""

import pandas as pd

from judgescope.web.render import opened_in, selection_key


def test_the_key_is_stable_for_the_same_rows_and_changes_with_any_row_order_or_column():
    rows = pd.DataFrame({"id": ["a", "b", "c"], "score": [1.0, 2.0, 2.0]})
    key = selection_key("grid", rows)
    assert key.startswith("grid.") and selection_key("grid", rows.copy()) == key
    assert selection_key("other", rows) != key
    changed = [rows.iloc[::-1].reset_index(drop=True),             # same rows, another order
               rows.iloc[:2],                                        # one row fewer
               rows.assign(score=[1.0, 2.0, 3.0]),                   # one value
               rows.rename(columns={"score": "mean"})]               # one column's name
    assert len({selection_key("grid", f) for f in changed} | {key}) == len(changed) + 1


def test_a_frame_holding_lists_is_keyed_by_its_text():
    rows = pd.DataFrame({"id": ["a", "b"], "tags": [["x"], ["y", "z"]]})
    assert selection_key("g", rows) == selection_key("g", rows.copy())
    assert selection_key("g", rows) != selection_key("g", rows.assign(tags=[["x"], ["y"]]))


def test_the_opened_row_is_marked_and_is_part_of_the_identity():
    ids = ["r1", "r2", "r3"]
    kw = opened_in(ids, "r2")
    assert kw["selection_default"] == {"selection": {"rows": [1]}}
    assert opened_in(ids, "r9")["selection_default"] is None   # opened, but not on this page
    assert opened_in(ids, None)["selection_default"] is None
    keys = {selection_key("g", opened_in(ids, o)["identity"]) for o in (None, "r1", "r2", "r9")}
    assert len(keys) == 4  # opening another record makes a new grid: no stale selection survives
