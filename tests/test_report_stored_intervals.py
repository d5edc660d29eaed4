"""Issue 45 item 1: `judgescope report` reads the default intervals the first open stored
(audit/interval_tables.py) for its unit, overall, language × unit and language rows, draws
nothing more at the default resamples and seed (any other: every group once across
groupings), and its BOOTSTRAP.json is the same, number for number and in the same order, as a
fresh draw at the same seed."""

import json

import pytest

from judgescope import defaults
from judgescope.audit import interval_tables
from judgescope.audit import summary as audit
from judgescope.cli.commands import report
from judgescope.sources.catalog import Catalog
from judgescope.wiring import TABLES, get_catalog
from judgescope.ingest.manifest import load_manifest
from test_binned_scores import float_manifest  # noqa: F401  (a module fixture: the float audit)


@pytest.fixture(params=["int", "float"])
def run(request, float_manifest):  # noqa: F811
    """The query runner of an audit whose default intervals are stored: the demo's integer
    audit, or a float audit (binned counts)."""
    store = (get_catalog().store("xhotpotqa") if request.param == "int"
             else Catalog(load_manifest(float_manifest), providers=TABLES).store("c"))
    assert store.has(interval_tables.VIEW)
    return store.run


def _counting(monkeypatch) -> list:
    calls = []
    real = audit._interval
    monkeypatch.setattr(audit, "_interval", lambda *a: calls.append(1) or real(*a))
    return calls


def test_the_report_s_intervals_from_the_stored_table_equal_a_fresh_draw(run, monkeypatch):
    fresh = report.bootstrap(run, defaults.RESAMPLES, defaults.SEED, stored=False)
    calls = _counting(monkeypatch)
    read = report.bootstrap(run, defaults.RESAMPLES, defaults.SEED, stored=True)
    assert json.dumps(read) == json.dumps(fresh)  # the same numbers, methods and key order
    # Nothing is drawn: each language's own interval (over all its units) is stored too.
    assert calls == []


def test_a_table_stored_without_the_languages_draws_only_them(run, monkeypatch):
    """A cache written before each language's interval was stored (no LANGUAGES rows): the
    report reads the rest and draws each language's interval, with the same result."""
    fresh = report.bootstrap(run, defaults.RESAMPLES, defaults.SEED, stored=False)
    real = interval_tables.stored_groups
    monkeypatch.setattr(interval_tables, "stored_groups",
                        lambda r, facet: None if facet == interval_tables.LANGUAGES else real(r, facet))
    calls = _counting(monkeypatch)
    read = report.bootstrap(run, defaults.RESAMPLES, defaults.SEED, stored=True)
    assert json.dumps(read) == json.dumps(fresh)
    assert len(calls) == len(fresh["by_language"])


def test_other_resamples_or_seed_are_drawn_not_read(run, monkeypatch):
    """The stored table holds the defaults only: another seed is drawn for every group."""
    fresh = report.bootstrap(run, 200, 7, stored=False)
    calls = _counting(monkeypatch)
    read = report.bootstrap(run, 200, 7, stored=True)
    assert json.dumps(read) == json.dumps(fresh)
    groups = sum(len(cells) for cells in read["by_language"].values()) + len(read["by_unit"]) + 1
    assert len(read["by_language"]) < len(calls) <= groups


def test_one_pool_of_every_grouping_equals_each_grouping_drawn_alone(run, monkeypatch):
    """bootstrap_tables draws a group met in several groupings once (the overall row of each
    grouping below is one group) and returns what bootstrap_table returns for each."""
    counts = audit.score_counts(run)
    groupings = [["unit"], [], ["target_language"], []]
    alone = [audit.bootstrap_table(counts, by, 300, 11, method=True) for by in groupings]
    calls = _counting(monkeypatch)
    together = audit.bootstrap_tables(counts, groupings, 300, 11, method=True)
    for a, b in zip(alone, together):
        assert a.equals(b)
    assert len(calls) == sum(len(t) for t in alone) - 1  # the repeated overall group drawn once


def test_the_report_names_the_stored_view_as_interval_tables_does():
    assert report.INTERVALS_VIEW == interval_tables.VIEW


def test_the_html_report_s_audit_section_is_the_same_read_or_drawn(run, monkeypatch):
    """report-html's audit section (units, overall, cells) reads the stored intervals too: every
    number it shows and its ledger are those of a fresh draw; nothing is drawn for them."""
    from judgescope.report import audit_section
    from judgescope.report.ledger import Ledger

    def section(stored):
        ledger = Ledger()
        out, missing = audit_section.build(run, ledger, name="a", seed=defaults.SEED,
                                           resamples=defaults.RESAMPLES, explanations=False,
                                           snapshot=None, stored=stored)
        return json.dumps([out, missing, ledger.numbers], default=str, sort_keys=True)

    fresh = section(False)
    calls = _counting(monkeypatch)
    assert section(True) == fresh
    assert not calls


def test_the_report_reads_the_score_counts_once(run, monkeypatch):
    """report_tables reads summary.score_counts once for SUMMARY, BY_LANGUAGE and BOOTSTRAP (a
    float audit's binned counts take several queries), and writes what each reads alone."""
    alone = (report.summary(run), report.by_language(run),
             report.bootstrap(run, defaults.RESAMPLES, defaults.SEED, stored=True))
    calls, real = [], audit.score_counts
    monkeypatch.setattr(audit, "score_counts", lambda r, *a, **k: calls.append(a) or real(r, *a, **k))
    tables = report.report_tables(run, defaults.RESAMPLES, defaults.SEED, by_system=False, stored=True)
    assert calls == [()]
    assert json.dumps(tables[0]) == json.dumps(alone[0]) and json.dumps(tables[2]) == json.dumps(alone[2])
    assert tables[1].equals(alone[1]) and tables[3] is None
