"""Hash-verified joins (judgescope/integrity/hashes.py, queries/verify_*.sql) on a fixture built in code."""

import hashlib
import json
import unicodedata
from pathlib import Path

import duckdb
import pandas as pd
import pytest

from judgescope import wiring
from judgescope.duck import db
from judgescope.integrity import hashes as verify
from judgescope.integrity.verification_tables import verification_views
from judgescope.sources.catalog import Catalog
from judgescope.wiring import TABLES
from judgescope.ingest.manifest import SourceError, load_manifest

KEY = ["instance_id", "target_language", "unit", "paragraph_id"]
NFD_CAFE = "Cafe\u0301 de Flore"  # what the snapshot holds: e + combining acute
NFC_CAFE = unicodedata.normalize("NFC", NFD_CAFE)  # what the judge saw


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# (record id, instance, language, unit, paragraph_id, judged source, judged candidate, snapshot rows)
# snapshot rows: list of (source_text, candidate_text) held for that key.
CASES = [
    ("r_ok", "i1", "th", "paragraph", "0", "Bangkok is big.", "กรุงเทพฯ ใหญ่",
     [("Bangkok is big.", "กรุงเทพฯ ใหญ่")], "verified", None),
    ("r_question", "i1", "th", "question", None, "Where?", "ที่ไหน",
     [("Where?", "ที่ไหน")], "verified", None),
    ("r_answer", "i1", "ar", "answer", None, "Paris", "باريس",
     [("Paris", "باريس")], "verified", None),
    ("r_source", "i2", "de", "paragraph", "0", "The judged source.", "Die Quelle.",
     [("A different source.", "Die Quelle.")], "source_mismatch", None),
    ("r_nfd", "i2", "de", "question", None, "Which café?", NFC_CAFE,
     [("Which café?", NFD_CAFE)], "candidate_mismatch", "nfc"),
    ("r_space", "i3", "fr", "answer", None, "Paris", "Paris",
     [("Paris ", "Paris\t")], "both_mismatch", "whitespace"),
    ("r_missing", "i4", "fr", "question", None, "Lost?", "Perdu ?", [], "missing", None),
    ("r_twice", "i5", "fr", "paragraph", "1", "Twice.", "Deux fois.",
     [("Twice.", "Deux fois."), ("Twice.", "Deux fois.")], "ambiguous", None),
]
UNREFERENCED = [("i9", "th", "answer", None, "Unused.", "ไม่ใช้")]


def write_fixture(folder: Path, cases=CASES) -> Path:
    """audit.jsonl, snapshot.jsonl and a manifest with collection `fx`; returns the manifest."""
    folder.mkdir(parents=True, exist_ok=True)
    audit, snap = [], []
    for rid, inst, lang, unit, par, src, cand, rows, _cls, _hint in cases:
        audit.append({"judge_record_id": rid, "instance_id": inst, "target_language": lang,
                      "unit": unit, "paragraph_id": par, "score": 90,
                      "source_text_sha256": sha(src), "candidate_text_sha256": sha(cand)})
        snap += [{"instance_id": inst, "target_language": lang, "unit": unit, "paragraph_id": par,
                  "source_text": s, "candidate_text": c} for s, c in rows]
    snap += [dict(zip(("instance_id", "target_language", "unit", "paragraph_id", "source_text",
                       "candidate_text"), u)) for u in UNREFERENCED]
    for name, records in (("audit.jsonl", audit), ("snapshot.jsonl", snap)):
        (folder / name).write_text("".join(json.dumps(r, ensure_ascii=False) + "\n"
                                           for r in records), encoding="utf-8")
    manifest = folder / "sources.toml"
    manifest.write_text("""
[[collection]]
name = "fx"
datasets = ["fx_audit", "fx_snapshot"]
[[dataset]]
name = "fx_audit"
kind = "judge_audit"
path = "audit.jsonl"
[[dataset]]
name = "fx_snapshot"
kind = "source_snapshot"
path = "snapshot.jsonl"
""", encoding="utf-8")
    return manifest


@pytest.fixture
def store(tmp_path) -> db.Store:
    return Catalog(load_manifest(write_fixture(tmp_path / "fx")), providers=TABLES).store("fx")


def test_every_class_on_the_fixture(store):
    rows = pd.concat([verify.class_rows(store.run, c, 100) for c in verify.CLASSES])
    got = {r.judge_record_id: (r["class"], r.hint) for _, r in rows.iterrows()}
    want = {c[0]: (c[8], c[9]) for c in CASES}
    assert {k: (c, None if h is None or h != h else h) for k, (c, h) in got.items()} == want


def test_summary_counts_and_unreferenced(store):
    s = verify.summarise(store.run)
    assert s.counts == {"verified": 3, "source_mismatch": 1, "candidate_mismatch": 1,
                        "both_mismatch": 1, "missing": 1, "ambiguous": 1}
    assert (s.checked, s.unverified, s.unreferenced) == (8, 5, 1)
    assert s.hints == {"nfc": 1, "whitespace": 1}
    cells = verify.by_language_unit(s)
    fr_answer = cells[(cells.target_language == "fr") & (cells.unit == "answer")].iloc[0]
    assert (fr_answer["both_mismatch"], fr_answer["verified"], fr_answer["checked"]) == (1, 0, 1)
    assert int(cells["checked"].sum()) == 8


def test_null_paragraph_id_matches_only_null(tmp_path):
    """A question (paragraph_id null) must not match a snapshot row with paragraph_id "0"."""
    cases = [("q", "i1", "th", "question", None, "Q?", "ถาม", [], "missing", None)]
    folder = tmp_path / "nulls"
    write_fixture(folder, cases)
    with (folder / "snapshot.jsonl").open("a", encoding="utf-8") as fh:
        fh.write(json.dumps({"instance_id": "i1", "target_language": "th", "unit": "question",
                             "paragraph_id": "0", "source_text": "Q?", "candidate_text": "ถาม"}) + "\n")
    s = verify.summarise(Catalog(load_manifest(folder / "sources.toml"), providers=TABLES).store("fx").run)
    assert s.counts["missing"] == 1 and s.unreferenced == 2


def test_key_subset_changes_the_join(store):
    """Joined on instance_id only, every audit row sees all snapshot rows of its instance."""
    views = {"audit": store.views["audit"], "snapshot": store.views["snapshot"]}
    views |= verification_views(views["audit"][0], views["snapshot"][0], ["instance_id"])
    s = verify.summarise(db.Store(views, derived=wiring.VIEWS.by_name).run)
    assert (s.counts["verified"], s.counts["ambiguous"], s.counts["missing"]) == (0, 6, 1)


@pytest.mark.parametrize("text", ["ascii", "กรุงเทพฯ", "باريس", NFD_CAFE, NFC_CAFE, "trailing ",
                                  "\u200b zero width", "emoji 👩‍👩‍👧", ""])
def test_duckdb_sha256_equals_hashlib(text, tmp_path):
    cases = [("r", "i", "th", "answer", None, text, text, [(text, text)], "verified", None)]
    st = Catalog(load_manifest(write_fixture(tmp_path / "h", cases)), providers=TABLES).store("fx")
    row = verify.class_rows(st.run, "verified", 5).iloc[0]
    assert row.source_sha256 == row.candidate_sha256 == sha(text)


def test_recomputed_and_stored_hashes_are_listed(store):
    row = verify.class_rows(store.run, "candidate_mismatch", 5).iloc[0]
    assert row.stored_candidate_sha256 == sha(NFC_CAFE)
    assert row.candidate_sha256 == sha(NFD_CAFE) and row.candidate_text == NFD_CAFE
    assert verify.class_rows(store.run, "verified", 1).shape[0] == 1


def test_report_json_shape(store):
    out = verify.report(store.run)
    assert out == {"checked": 8, "verified": 3, "source_mismatch": ["r_source"],
                   "candidate_mismatch": ["r_nfd"], "both_mismatch": ["r_space"],
                   "missing": ["r_missing"], "ambiguous": ["r_twice"],
                   "normalization_hint": {"r_nfd": "nfc", "r_space": "whitespace"},
                   "unreferenced_snapshot_rows": 1}


@pytest.mark.parametrize("key", [[], ["score"], ["instance_id", "x; DROP"]])
def test_key_outside_whitelist_is_refused(key):
    with pytest.raises(SourceError):
        verify.check_key(key)


def test_verify_queries_share_one_classification():
    """The classification is written once, as table macros (queries/macros/verify.sql), and
    materialised once, by id; the other tables, page and CLI queries read the materialised rows."""
    assert "verify_classified($key)" in db.query_text("verify_build_by_id")
    for name in ("verify_build_rows", "verify_build_summary", "verify_summary", "verify_problem_ids",
                 "verify_rows"):
        assert "verify_classified" not in db.query_text(name)
        assert "keyed_snapshot AS" not in db.query_text(name)  # no copy of the macros


def test_verification_is_built_once_and_reused(tmp_path):
    manifest = write_fixture(tmp_path / "fx")
    first = Catalog(load_manifest(manifest), providers=TABLES).store("fx").views["hash_verification"][0]
    mtime = first.stat().st_mtime_ns
    store = Catalog(load_manifest(manifest), providers=TABLES).store("fx")
    assert store.views["hash_verification"][0] == first
    assert first.stat().st_mtime_ns == mtime  # read, not rebuilt
    other = verification_views(store.views["audit"][0], store.views["snapshot"][0], ["instance_id"])
    assert other["hash_verification"][0].parent != first.parent  # another join key, another build


def test_verified_rows_are_written_once_and_listed_from_the_first(tmp_path, monkeypatch):
    """Every audit row is written once (hash_verification_by_id); hash_verification keeps every
    row that is not verified and only the first LISTED verified ones, in the order Integrity
    lists them. The counts, the CLI's problem list, Review's lookup, the length probe and Exact
    copies still see every row."""
    from judgescope.integrity import verification_tables

    verified = [(f"v{i:03d}", f"v{i}", lang, "answer", None, f"s{i}", f"s{i}", [(f"s{i}", f"s{i}")],
                 "verified", None) for i, lang in enumerate(["th", "ar", "de"] * 10)]
    manifest = write_fixture(tmp_path / "o", CASES + verified)
    every = Catalog(load_manifest(manifest), providers=TABLES).store("fx")
    first = verify.class_rows(every.run, "verified", 1000)
    monkeypatch.setattr(verification_tables, "LISTED", 4)
    st = Catalog(load_manifest(manifest), providers=TABLES).store("fx")
    listed = pd.read_parquet(st.views["hash_verification"][0])
    assert (listed["class"] == "verified").sum() == 4
    assert len(listed) == 4 + len(CASES) - 3  # the fixture's five problem rows, all kept
    assert len(pd.read_parquet(st.views["hash_verification_by_id"][0])) == len(CASES) + len(verified)
    assert len(first) == 3 + len(verified)
    pd.testing.assert_frame_equal(verify.class_rows(st.run, "verified", 4), first.head(4))
    for cls in verify.PROBLEMS:
        pd.testing.assert_frame_equal(verify.class_rows(st.run, cls, 100), verify.class_rows(every.run, cls, 100))
    assert verify.report(st.run) == verify.report(every.run)
    assert verify.summarise(st.run).counts["verified"] == 3 + len(verified)
    ids = ["v029", "r_ok", "r_missing"]
    assert st.run("verify_rows_by_id", ids=ids).sort_values("judge_record_id").values.tolist() == \
        every.run("verify_rows_by_id", ids=ids).sort_values("judge_record_id").values.tolist()
    lengths = st.run("audit_lengths")
    assert len(lengths) == len(every.run("audit_lengths")) == 3 + len(verified) + 3  # one snapshot row each
    copies = st.run("audit_exact_copy_rows", languages=[], units=[], limit=100)
    ours = copies[copies["judge_record_id"].str.startswith("v")]
    assert len(ours) == len(verified) and ours["candidate_text"].notna().all()  # beyond the 4 listed too
    with pytest.raises(ValueError, match="at most 4 verified rows"):
        verify.class_rows(st.run, "verified", 5)


def test_the_verification_by_id_is_the_record_index_when_a_snapshot_is_joined(tmp_path):
    """With a snapshot joined, the record index is hash_verification_by_id's file (every audit
    row's id and score, sorted alike): the audit's ids are sorted once. Opening any record reads
    the same row as without a snapshot, where the index is built on its own."""
    varied = [(f"v{i:03d}", f"v{i}", "de", "answer", None, f"s{i}", f"s{i}", [(f"s{i}", f"s{i}")],
               "verified", None) for i in range(12)]
    store = Catalog(load_manifest(write_fixture(tmp_path / "fx", CASES + varied)), providers=TABLES).store("fx")
    assert store.views["audit_record_index"] == store.views["hash_verification_by_id"]
    audit = pd.read_parquet(store.views["audit"][0])
    index = pd.read_parquet(store.views["audit_record_index"][0])
    assert index["judge_record_id"].tolist() == sorted(audit["judge_record_id"])  # sorted by id
    assert dict(zip(index.judge_record_id, index.score)) == dict(zip(audit.judge_record_id, audit.score))
    assert not list(store.views["audit_record_index"][0].parent.glob("audit_record_index*"))  # none of its own
    alone = tmp_path / "alone"
    alone.mkdir()
    (alone / "audit.jsonl").write_bytes((tmp_path / "fx" / "audit.jsonl").read_bytes())
    (alone / "sources.toml").write_text('[[collection]]\nname = "a"\ndatasets = ["a"]\n[[dataset]]\n'
                                        'name = "a"\nkind = "judge_audit"\npath = "audit.jsonl"\n', encoding="utf-8")
    bare = Catalog(load_manifest(alone / "sources.toml"), providers=TABLES).store("a")
    assert bare.views["audit_record_index"][0].name == "audit_record_index.parquet"
    for rid in audit["judge_record_id"]:
        joined, own = store.run("audit_record", record_id=rid), bare.run("audit_record", record_id=rid)
        assert len(joined) == 1 and joined.drop(columns=["_file"]).equals(own.drop(columns=["_file"]))


def test_class_list_is_the_first_rows_in_order(tmp_path):
    """verify_rows relies on the materialised file's order (snapshot order within a class)."""
    cases = [(f"r{i:03d}", f"i{i}", lang, unit, None, f"s{i}", f"c{i}", [(f"s{i}", f"c{i}")],
              "verified", None)
             for i, (lang, unit) in enumerate([(lg, u) for lg in ("th", "ar", "de") for u in
                                                ("answer", "question")] * 7)]
    st = Catalog(load_manifest(write_fixture(tmp_path / "o", cases)), providers=TABLES).store("fx")
    got = verify.class_rows(st.run, "verified", 10)
    every = verify.class_rows(st.run, "verified", 1000)
    assert len(every) == len(cases)
    assert got["judge_record_id"].tolist() == every["judge_record_id"].head(10).tolist()
    snap = pd.read_parquet(st.views["snapshot"][0])
    order = {(r.instance_id, r.target_language, r.unit): i for i, r in enumerate(snap.itertuples())}
    audit = pd.read_parquet(st.views["audit"][0]).set_index("judge_record_id")
    positions = [order[(audit.loc[rid, "instance_id"], lang, unit)]
                 for rid, lang, unit in zip(every.judge_record_id, every.target_language, every.unit)]
    assert positions == sorted(positions)  # snapshot order


@pytest.mark.parametrize("name", ["verify_summary", "verify_problem_ids", "verify_rows",
                                  "verify_row_texts", "verify_rows_by_id"])
def test_queries_bind_strictly(store, name):
    params = {"class": "verified", "limit": 1, "positions": [0], "ids": ["r1"]}
    wanted = {p: params[p] for p in db.query_params(name)}
    store.run(name, **wanted)
    # DuckDB names a surplus value when the query has parameters, a count mismatch otherwise.
    error = duckdb.InvalidInputException if wanted else duckdb.BinderException
    with pytest.raises(error, match="(?i)param"):
        store.run(name, **wanted, extra=1)


def test_a_derived_table_that_cannot_be_built_is_named_not_fatal(tmp_path, monkeypatch):
    from judgescope.audit import record_tables as audit_tables

    def broken(*_args):
        raise SourceError("disk full")
    monkeypatch.setattr(audit_tables, "exact_copy_views", broken)
    cat = Catalog(load_manifest(write_fixture(tmp_path / "fx")), providers=TABLES)
    store = cat.store("fx")  # the collection still opens
    assert "audit_exact_copies" not in store.views and "hash_verification" in store.views
    assert any("exact copies of fx_audit" in p and "disk full" in p for p in cat.manifest.problems)


def test_a_repeated_key_is_one_ambiguous_match_at_its_first_row(store):
    """A key two snapshot rows hold: the audit row counts both (snapshot_rows 2), is ambiguous
    even though both rows' digests equal its own, and points at the first of them, so the
    summary counts that key's rows once among the referenced ones."""
    con = duckdb.connect()
    hv = con.execute("SELECT judge_record_id, snapshot_rows, snapshot_position, class FROM read_parquet($p) "
                     "ORDER BY judge_record_id", {"p": str(store.views["hash_verification"][0])}).fetchall()
    rows = {r[0]: r[1:] for r in hv}
    snap = con.execute("SELECT file_row_number FROM read_parquet($p, file_row_number = true) "
                       "WHERE instance_id = 'i5' ORDER BY file_row_number",
                       {"p": str(store.views["snapshot"][0])}).fetchall()
    assert rows["r_twice"] == (2, snap[0][0], "ambiguous") and len(snap) == 2
    assert rows["r_missing"] == (None, None, "missing")
    assert all(rows[r][0] == 1 for r in ("r_ok", "r_source", "r_space"))


def test_no_page_lists_more_verified_rows_than_are_stored():
    """hash_verification keeps the first verification_tables.LISTED verified rows: Integrity's
    list (pages/integrity.py LIST_LIMIT) and Review's list of a class (ORIGIN_LIMIT) fit in it
    (class_rows refuses a longer verified list)."""
    import ast

    from judgescope.integrity import verification_tables
    from judgescope.web import review

    page = ast.parse((Path(__file__).resolve().parents[1] / "pages" / "integrity.py").read_text(encoding="utf-8"))
    found = {}
    for node in (n for n in page.body if isinstance(n, ast.Assign)):
        for target in node.targets:
            names = [e.id for e in target.elts] if isinstance(target, ast.Tuple) else [getattr(target, "id", "")]
            values = ast.literal_eval(node.value) if "LIST_LIMIT" in names else ()
            found |= dict(zip(names, values if isinstance(values, tuple) else (values,)))
    list_limit = found["LIST_LIMIT"]
    assert max(list_limit, review.ORIGIN_LIMIT) <= verification_tables.LISTED


def test_stored_digests_that_are_not_32_bytes_of_hex_match_nothing(tmp_path):
    """The join compares digests as their 32 bytes (queries/macros/verify.sql): a stored digest
    that is not hex, or odd-length, or a byte short, is a mismatch, and is listed as stored; an
    upper-case one with blanks around it is normalised at validation and verifies."""
    cases = [(rid, "i1", "th", unit, "0" if unit == "paragraph" else None, "Source.", "ต้นฉบับ",
              [("Source.", "ต้นฉบับ")], None, None)
             for rid, unit in (("r_upper", "paragraph"), ("r_junk", "question"), ("r_odd", "answer"))]
    cases.append(("r_short", "i2", "th", "paragraph", "0", "Other.", "อื่น", [("Other.", "อื่น")], None, None))
    manifest = write_fixture(tmp_path / "fx", cases)
    audit = tmp_path / "fx" / "audit.jsonl"
    stored = {"r_upper": {"source_text_sha256": f"  {sha('Source.').upper()}\t"},
              "r_junk": {"source_text_sha256": "not-a-digest"},
              "r_odd": {"source_text_sha256": sha("Source.")[:63]},
              "r_short": {"candidate_text_sha256": sha("อื่น")[:62]}}
    rows = [json.loads(line) for line in audit.read_text(encoding="utf-8").splitlines()]
    audit.write_text("".join(json.dumps(r | stored[r["judge_record_id"]], ensure_ascii=False) + "\n"
                             for r in rows), encoding="utf-8")
    store = Catalog(load_manifest(manifest), providers=TABLES).store("fx")
    out = verify.report(store.run)
    assert (out["verified"], sorted(out["source_mismatch"]), out["candidate_mismatch"]) == \
        (1, ["r_junk", "r_odd"], ["r_short"])
    listed = verify.class_rows(store.run, "source_mismatch", 5).set_index("judge_record_id")
    assert listed.loc["r_junk", "stored_source_sha256"] == "not-a-digest"
    assert listed.loc["r_odd", "stored_source_sha256"] == sha("Source.")[:63]
    assert (listed["source_sha256"] == sha("Source.")).all()  # the snapshot's, as lower-case hex
    short = verify.class_rows(store.run, "candidate_mismatch", 5).iloc[0]
    assert (short.stored_candidate_sha256, short.candidate_sha256) == (sha("อื่น")[:62], sha("อื่น"))
