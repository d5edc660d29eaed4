"""Issue #28: validation normalises stored digests (lower-case, trimmed of eight blanks, NULL
when empty) through a fast path for values already normal; it must be the plain rule exactly,
for the cast and for the count of digests it changed (report.json's digests_normalised)."""

import duckdb
from hypothesis import given, settings
from hypothesis import strategies as st

from judgescope.schema import DIGEST
from judgescope.ingest import validate

BLANKS = " \t\n\x0b\x0c\r\u00a0\u3000"
PLAIN_RULE = f"nullif(lower(trim(CAST(v AS VARCHAR), {validate.BLANKS})), '')"
TEXTS = st.one_of(st.none(), st.text(alphabet=st.sampled_from("0a9fFÉé" + BLANKS + "x\u2003"), max_size=8))


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(TEXTS, min_size=1, max_size=30))
def test_the_fast_path_is_the_plain_rule(values):
    con = duckdb.connect()
    con.execute("CREATE TABLE t (v VARCHAR)")
    con.executemany("INSERT INTO t VALUES (?)", [[v] for v in values])
    fast = validate._cast("v", DIGEST, "VARCHAR")
    got = con.execute(f"SELECT {fast}, {PLAIN_RULE} FROM t").fetchall()
    assert [a for a, _ in got] == [b for _, b in got]
    changed = con.execute(f"SELECT count(*) FILTER (WHERE CAST(v AS VARCHAR) <> {PLAIN_RULE}) FROM t").fetchone()[0]
    con.execute("CREATE TABLE raw AS SELECT v AS source_text_sha256 FROM t")
    con.execute("CREATE TABLE excluded AS SELECT * FROM raw LIMIT 0")
    notes = validate.digest_notes(con, _schema_with_digest(), {"source_text_sha256": "VARCHAR"})
    assert notes.get("source_text_sha256", 0) == changed


def _schema_with_digest():
    from judgescope.schema import SCHEMAS
    return SCHEMAS["judge_audit"]


def test_a_digest_with_blanks_or_capitals_is_normalised_and_counted():
    con = duckdb.connect()
    con.execute("CREATE TABLE raw AS SELECT * FROM (VALUES ('ABC'), (' abc\u3000'), ('abc'), (''), (NULL)) "
                "t(source_text_sha256)")
    con.execute("CREATE TABLE excluded AS SELECT * FROM raw LIMIT 0")
    cast = validate._cast("source_text_sha256", DIGEST, "VARCHAR")
    assert [r[0] for r in con.execute(f"SELECT {cast} FROM raw").fetchall()] == ["abc", "abc", "abc", None, None]
    assert validate.digest_notes(con, _schema_with_digest(), {"source_text_sha256": "VARCHAR"}) == {
        "source_text_sha256": 2}
