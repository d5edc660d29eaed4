"""The reviewer's loop as sequences (issue #22): Hypothesis' stateful testing drives the domain
code behind Review (keyset pages, Prev / Next neighbours, the row's position, next unreviewed,
per-record drafts, verdicts, retractions) through random runs of filter, sort, page, open, next,
prev, type a draft, verdict, retract, switch collection and reload, and compares every step with
a small pure model: a Python list sorted by (score, judge_record_id), reversed for "highest
first", and dictionaries of drafts and verdicts.

Two collections: one where most scores tie (three distinct scores over 26 rows, ids whose string
order differs from their number order) and one with distinct scores. Failing sequences found
while writing the test are kept below as @example-style regression tests.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from pathlib import Path

import duckdb
import pandas as pd
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (RuleBasedStateMachine, initialize, invariant, precondition,
                                 rule, run_state_machine_as_test)

from judgescope.audit import rows as audit_rows
from judgescope.reviews import verdict_log as reviews
from judgescope.duck import db
from judgescope.web import pager
from judgescope.web.verdicts import widget_keys
from stores import audit_row, write_counts, write_summaries, write_table

PAGE = 3
EXAMPLES = int(os.environ.get("JUDGESCOPE_STATE_EXAMPLES", "200"))
LANGS, UNITS = ("th", "de"), ("answer", "paragraph")
SYSTEMS = ("sys-A", "sys-B", "not recorded")  # the tied collection's systems; a missing one reads 'not recorded'
REVIEWERS = ("ann", "bob")
QUERY_CACHE: dict = {}  # (collection, query, parameters) -> rows: the data never changes
EXAMPLES_RUN = []  # one entry per state machine run, counted and reported by the machine's test


def _tied_rows() -> list[dict]:
    """26 rows, scores 10 / 20 / 30 only (most tie), ids r1…r26 (so "r10" sorts before "r2")."""
    out = []
    for i in range(1, 27):
        score = (10, 20, 20, 10, 30)[i % 5]
        out.append(audit_row(i, LANGS[i % 2], UNITS[(i // 2) % 2], score,
                        judge_explanation="kept a name" if i % 3 == 0 else f"explanation {i}",
                        system=(None, "sys-A", "sys-B")[i % 3 if i % 7 else 0]))
    return out


def _distinct_rows() -> list[dict]:
    return [audit_row(100 + i, LANGS[i % 2], UNITS[i % 2], 5.5 * i + (i % 3) / 10,
                 judge_explanation="name" if i % 4 == 0 else "other") for i in range(12)]


COLLECTIONS = {"ties": _tied_rows(), "distinct": _distinct_rows()}  # only "ties" has systems
HAS_SYSTEM = {name: any(r["system"] for r in rows) for name, rows in COLLECTIONS.items()}


@pytest.fixture(scope="module")
def stores(tmp_path_factory):
    """One DuckDB store per collection, built as the catalog builds them (audit, per-score and binned counts)."""
    tmp = tmp_path_factory.mktemp("statemachine")
    con = duckdb.connect()
    out = {}
    for name, rows in COLLECTIONS.items():
        frame = pd.DataFrame(rows).sort_values("score", kind="stable")  # the catalog sorts by score
        views = {"audit": write_table(con, frame, tmp / f"{name}.parquet")}
        views["audit_counts"] = write_counts(con, tmp / f"{name}.parquet")
        with duckdb.connect() as own:  # it creates the macros: a connection of its own
            views |= write_summaries(own, tmp / f"{name}.parquet")  # Review asks if it is binned
        out[name] = db.Store(views)
    return out


# --- the pure model ------------------------------------------------------------------------

def model_list(rows: list[dict], f: dict, desc: bool) -> list[str]:
    """The filtered list's ids in its total order: (score, id) ascending, or its exact reverse."""
    keep = [r for r in rows
            if (not f["languages"] or r["target_language"] in f["languages"])
            and (not f["units"] or r["unit"] in f["units"])
            and (not f["systems"] or (r["system"] or "not recorded") in f["systems"])
            and f["min_score"] <= r["score"] <= f["max_score"]
            and (not f["q"] or f["q"].lower() in (r["judge_explanation"] or "").lower())]
    keep.sort(key=lambda r: (r["score"], r["judge_record_id"]), reverse=desc)
    return [r["judge_record_id"] for r in keep]


def _filters(languages=(), units=(), min_score=0.0, max_score=100.0, q="", systems=()) -> dict:
    return {"languages": list(languages), "units": list(units), "origins": [], "run_groups": [],
            "systems": list(systems), "min_score": float(min_score), "max_score": float(max_score), "q": q}


def to_url(collection: str, f: dict, desc: bool, record: str | None, pos: pager.Position) -> dict:
    """The Review URL of a state, as the page writes it (bound widgets + pager parameters)."""
    params = {"collection": collection, "lang": f["languages"], "unit": f["units"], "system": f["systems"],
              "min": repr(f["min_score"]), "max": repr(f["max_score"]), "q": f["q"],
              "order": "highest first" if desc else "lowest first"}
    if record:
        params["record"] = record
    return params | pos.to_params(pager.signature(collection, f, desc))


def from_url(params: dict) -> tuple:
    f = _filters(params["lang"], params["unit"], float(params["min"]), float(params["max"]), params["q"],
                 params["system"])
    desc = params["order"] == "highest first"
    pos = pager.read(params, pager.signature(params["collection"], f, desc))
    return params["collection"], f, desc, params.get("record"), pos


class ReviewLoop(RuleBasedStateMachine):
    """One reviewer session (and its reloads) against the domain code and the model."""

    def __init__(self, stores, tmp):
        super().__init__()
        self.stores, self.path = stores, tmp / f"{uuid.uuid4().hex}.sqlite"

    def run(self, query, **params):
        key = (self.collection, query, tuple(sorted((k, tuple(v) if isinstance(v, list) else v)
                                                    for k, v in params.items())))
        if key not in QUERY_CACHE:  # the app caches query results per parameters too
            QUERY_CACHE[key] = self.stores[self.collection].run(query, **params)
        return QUERY_CACHE[key].copy()

    @initialize(collection=st.sampled_from(sorted(COLLECTIONS)), who=st.sampled_from(REVIEWERS))
    def start(self, collection, who):
        self.collection, self.who = collection, who
        self.filters, self.desc = _filters(), False
        self.record: str | None = None
        self.pos = pager.Position(None, 1)
        self.session: dict = {}  # widget values of this browser session (st.session_state)
        self.drafts: dict = {}  # model: (who, dataset, id) -> (tags, note)
        self.verdicts: dict = {}  # model: (who, dataset, id) -> latest (verdict, tags, note)
        self.steps = 0

    # helpers
    @property
    def dataset(self):
        return self.collection  # one audit dataset per collection here

    def model(self) -> list[str]:
        return model_list(COLLECTIONS[self.collection], self.filters, self.desc)

    def score(self, rid) -> float:
        return next(r["score"] for r in COLLECTIONS[self.collection] if r["judge_record_id"] == rid)

    def key(self, rid):
        return audit_rows.sort_key(self.score(rid), rid)

    def list_changed(self):
        self.pos = pager.Position(None, 1)  # a new list starts at its first page

    # --- list actions -------------------------------------------------------------------
    @rule(languages=st.lists(st.sampled_from(LANGS), max_size=1, unique=True),
          units=st.lists(st.sampled_from(UNITS), max_size=2, unique=True),
          low=st.sampled_from([0.0, 10.0, 20.0, 25.0]), high=st.sampled_from([100.0, 30.0, 20.0]),
          q=st.sampled_from(["", "", "name"]),
          systems=st.lists(st.sampled_from(SYSTEMS), max_size=2, unique=True))
    def filter(self, languages, units, low, high, q, systems):
        # Review offers the System filter only on an audit with a system column.
        self.filters = _filters(languages, units, low, high, q, systems if HAS_SYSTEM[self.collection] else ())
        self.list_changed()

    @rule()
    def sort(self):
        self.desc = not self.desc
        self.list_changed()

    @rule(collection=st.sampled_from(sorted(COLLECTIONS)))
    def switch_collection(self, collection):
        self.collection = collection  # the picker starts the new collection clean
        self.filters, self.desc, self.record = _filters(), False, None
        self.session.clear()
        self.list_changed()

    @rule()
    def next_page(self):
        page = audit_rows.review_page(self.run, self.filters, self.pos.after or pager.start(self.desc),
                                      self.desc, PAGE)
        want = self.model()[self.pos.first - 1:self.pos.first - 1 + PAGE]
        assert page.judge_record_id.tolist() == want
        if page.empty or self.pos.first - 1 + len(page) >= len(self.model()):
            return  # "Next" is disabled on the last page
        self.pos = pager.next_position(self.pos, (float(page.score.iloc[-1]), page.judge_record_id.iloc[-1]),
                                       len(page))

    @rule()
    def previous_page(self):
        if self.pos.after is None:
            return  # "Previous" is disabled on the first page
        page = audit_rows.review_page(self.run, self.filters, self.pos.after, self.desc, PAGE)
        first = (float(page.score.iloc[0]), page.judge_record_id.iloc[0])
        before = audit_rows.review_page(self.run, self.filters, first, not self.desc, PAGE + 1)
        self.pos = pager.previous_position(self.pos, list(zip(before.score, before.judge_record_id)), PAGE)
        page = audit_rows.review_page(self.run, self.filters, self.pos.after or pager.start(self.desc),
                                      self.desc, PAGE)
        assert page.judge_record_id.tolist() == self.model()[self.pos.first - 1:self.pos.first - 1 + PAGE]

    # --- record actions -----------------------------------------------------------------
    @rule(data=st.data())
    def open(self, data):
        listed = self.model()
        if not listed:
            return
        self.record = data.draw(st.sampled_from(listed))

    @precondition(lambda self: self.record is not None)
    @rule()
    def next(self):
        self._step(+1)

    @precondition(lambda self: self.record is not None)
    @rule()
    def prev(self):
        self._step(-1)

    def _step(self, direction):
        listed = self.model()
        before, after = audit_rows.neighbours(self.run, self.filters, self.key(self.record), self.desc)
        got = after if direction > 0 else before
        if self.record in listed:
            i = listed.index(self.record) + direction
            want = listed[i] if 0 <= i < len(listed) else None
            assert (got and got[1]) == want, (self.record, direction, listed)
            position = audit_rows.review_position(self.run, self.filters, self.key(self.record), self.desc)
            assert position == listed.index(self.record) + 1
        else:  # opened from elsewhere: the rows on either side of where it would stand
            assert audit_rows.review_position(self.run, self.filters, self.key(self.record), self.desc) is None
            k = self.key(self.record)
            side = [r for r in listed if (self.key(r) > k) != self.desc] if direction > 0 else \
                   [r for r in reversed(listed) if (self.key(r) < k) != self.desc]
            assert (got and got[1]) == (side[0] if side else None)
        if got is None:
            return  # the button is disabled: nothing happens
        came_from, self.record = self.record, got[1]
        back = audit_rows.neighbours(self.run, self.filters, self.key(self.record), self.desc)
        if came_from in listed:
            assert back[0 if direction > 0 else 1][1] == came_from, \
                "Prev after Next (or Next after Prev) must return to the same row"

    @precondition(lambda self: self.record is not None)
    @rule(tags=st.lists(st.sampled_from(reviews.TAGS), max_size=2, unique=True),
          note=st.sampled_from(["", "typed here", "ไทย note", "=cmd|' /C calc'!A0"]))
    def type_draft(self, tags, note):
        """What the tags and note widgets' on_change does: keep the draft of the record shown."""
        tkey, nkey = widget_keys("review", self.who, self.record)
        self.session[tkey], self.session[nkey] = tags, note
        reviews.save_draft(self.who, self.dataset, self.record, tags, note, path=self.path)
        k = (self.who, self.dataset, self.record)
        if tags or note:
            self.drafts[k] = (list(tags), note)
        else:
            self.drafts.pop(k, None)
        self.store_matches_model()

    def _opened_widgets(self):
        """A record's widgets when shown: this session's values, else the server's draft."""
        tkey, nkey = widget_keys("review", self.who, self.record)
        if tkey not in self.session and nkey not in self.session:
            kept = reviews.draft(self.who, self.dataset, self.record, self.path)
            if kept:
                self.session[tkey], self.session[nkey] = kept
        return self.session.get(tkey) or [], self.session.get(nkey) or ""

    @precondition(lambda self: self.record is not None)
    @rule(verdict=st.sampled_from(reviews.VERDICTS))
    def give_verdict(self, verdict):
        """A verdict key on the record shown: its own tags and note, nothing else."""
        tags, note = self._opened_widgets()
        k = (self.who, self.dataset, self.record)
        assert (tags, note) == self.drafts.get(k, ([], "")), "the widgets show this record's draft"
        row = reviews.save_verdict(self.path, reviewer=self.who, collection=self.collection,
                                   dataset=self.dataset, judge_record_id=self.record,
                                   verdict=verdict, tags=tags, note=note)
        tkey, nkey = widget_keys("review", self.who, self.record)
        self.session[tkey], self.session[nkey] = [], ""
        self.verdicts[k] = (verdict, list(tags), note)
        self.drafts.pop(k, None)
        assert row["judge_record_id"] == self.record
        self.store_matches_model()

    @rule(who=st.sampled_from(REVIEWERS))
    def switch_reviewer(self, who):
        self.who = who

    @rule()
    def reload(self):
        """A new tab with the URL: the state comes back from the URL and the server alone."""
        params = to_url(self.collection, self.filters, self.desc, self.record, self.pos)
        state = from_url(params)
        assert state == (self.collection, self.filters, self.desc, self.record, self.pos)
        self.session = {}  # widget values do not survive; drafts do (server side)
        if self.record:
            self._opened_widgets()
        self.store_matches_model()

    @precondition(lambda self: len(COLLECTIONS[self.collection]) <= 30)
    @rule()
    def walk_end_to_end(self):
        """From the first row, Next until disabled visits every row once, in order; then back."""
        listed = self.model()
        if not listed:
            return
        seen, key = [], None
        first = audit_rows.review_page(self.run, self.filters, pager.start(self.desc), self.desc, 1)
        key = (float(first.score.iloc[0]), first.judge_record_id.iloc[0])
        while key is not None:
            seen.append(key[1])
            key = audit_rows.neighbours(self.run, self.filters, key, self.desc)[1]
            assert len(seen) <= len(listed)
        assert seen == listed
        back, key = [], self.key(listed[-1])
        while key is not None:
            back.append(key[1])
            key = audit_rows.neighbours(self.run, self.filters, key, self.desc)[0]
        assert back == listed[::-1]

    @rule(mine=st.booleans())
    def next_unreviewed(self, mine):
        latest = reviews.latest(self.path, self.dataset)
        done = latest[latest.reviewer == self.who] if mine else latest
        ids = done.judge_record_id.tolist()
        key = self.key(self.record) if self.record else None
        got = audit_rows.next_unreviewed(self.run, self.filters, key, self.desc, ids)
        listed = self.model()
        want = [r for r in listed if r not in set(ids) and r != self.record]
        if self.record is not None:
            k = self.key(self.record)
            later = [r for r in want if (self.key(r) > k) != self.desc]
            want = later + [r for r in want if r not in later]
        assert (got and got[1]) == (want[0] if want else None)
        if got:
            self.record = got[1]

    # --- invariants ---------------------------------------------------------------------
    def store_matches_model(self):
        """Checked after every action that writes (a draft, a verdict) and on reload."""
        latest = reviews.latest(self.path, keep_retracted=True)
        stored = {(r.reviewer, r.dataset, r.judge_record_id): (r.verdict, __import__("json").loads(r.tags), r.note)
                  for r in latest.itertuples()}
        assert stored == self.verdicts, "every verdict on the row it was given, with its own text"
        for (who, dataset, rid), want in self.drafts.items():
            assert reviews.draft(who, dataset, rid, self.path) == want
        kept = sum(len(reviews.drafts(w, d, self.path)) for w, d in {k[:2] for k in self.drafts})
        assert kept == len(self.drafts)

    @invariant()
    def position_matches_model(self):
        if not hasattr(self, "collection"):
            return
        total = audit_rows.review_count(self.run, self.filters)
        assert total == len(self.model())


@pytest.fixture
def machine(stores, tmp_path):
    shm = Path("/dev/shm")  # the store fsyncs every write: on tmpfs that costs nothing
    folder = Path(tempfile.mkdtemp(dir=shm)) if shm.is_dir() else tmp_path

    class Loop(ReviewLoop):
        def __init__(self):
            super().__init__(stores, folder)
            EXAMPLES_RUN.append(1)
    yield Loop
    if folder != tmp_path:
        shutil.rmtree(folder, ignore_errors=True)


def test_the_reviewer_loop_against_the_model(machine):
    run_state_machine_as_test(machine, settings=settings(
        max_examples=EXAMPLES, stateful_step_count=20, deadline=None, derandomize=True,
        suppress_health_check=list(HealthCheck)))
    assert len(EXAMPLES_RUN) >= EXAMPLES
    print(f"\nstate machine examples run: {len(EXAMPLES_RUN)}")  # issue #22's closing note reports it


# --- regression sequences kept from the issue and from failures found while writing this ---

def test_prev_on_the_first_tied_row_is_disabled_and_k_walks_back(stores):
    """Defect 2: on the first row of a list where scores tie, Prev was enabled and moved
    forward; from the 4th row it jumped to the 1st."""
    run = stores["ties"].run
    f = _filters()
    listed = model_list(COLLECTIONS["ties"], f, False)
    first = audit_rows.sort_key(10.0, listed[0])
    assert audit_rows.neighbours(run, f, first, False)[0] is None
    key = (10.0, listed[3])
    for want in reversed(listed[:3]):  # k three times from the 4th row: 3rd, 2nd, 1st
        key = audit_rows.neighbours(run, f, key, False)[0]
        assert key[1] == want
    assert audit_rows.review_position(run, f, key, False) == 1


def test_highest_first_is_the_exact_reverse(stores):
    """Found while writing the model: "highest first" broke score ties by id ascending, so
    the descending list was not the ascending one reversed and its Prev read the wrong side."""
    run = stores["ties"].run
    f = _filters()
    up = model_list(COLLECTIONS["ties"], f, False)
    page = audit_rows.review_page(run, f, pager.start(True), True, 100)
    assert page.judge_record_id.tolist() == up[::-1]


def test_a_note_typed_on_a_then_verdict_on_b_stays_on_a(stores, tmp_path):
    """Defect 1 as a sequence: note + tag on A, move on without saving, verdict on B."""
    path = tmp_path / "r.sqlite"
    session: dict = {}
    a, b = "r1", "r2"
    ta, na = widget_keys("review", "ann", a)
    session[ta], session[na] = ["untranslated"], "only on A"
    reviews.save_draft("ann", "ties", a, ["untranslated"], "only on A", path=path)
    tb, nb = widget_keys("review", "ann", b)
    reviews.save_verdict(path, reviewer="ann", collection="ties", dataset="ties", judge_record_id=b,
                         verdict="too_harsh", tags=session.get(tb) or [], note=session.get(nb) or "")
    log = reviews.log(path)
    assert log[["judge_record_id", "tags", "note"]].values.tolist() == [[b, "[]", ""]]
    assert reviews.draft("ann", "ties", a, path) == (["untranslated"], "only on A")


def test_next_unreviewed_wraps_and_skips_the_row_shown(stores):
    run = stores["ties"].run
    f = _filters(languages=["th"])
    listed = model_list(COLLECTIONS["ties"], f, False)
    last = audit_rows.sort_key(next(r["score"] for r in COLLECTIONS["ties"]
                                    if r["judge_record_id"] == listed[-1]), listed[-1])
    assert audit_rows.next_unreviewed(run, f, last, False, [listed[0]])[1] == listed[1]
    assert audit_rows.next_unreviewed(run, f, last, False, listed[:-1]) is None
    assert audit_rows.list_next_unreviewed(listed, listed[-1], [listed[0]]) == listed[1]
    assert audit_rows.list_step(listed, listed[0])[:2] == (None, listed[1])
    assert audit_rows.list_step(listed, "nope") == (None, None, None)
