"""The checks' cheaper forms say what the plain ones said (issue 45: a 10M-row audit's check
pass went from 3.6 s to 0.8 s): the blank test trims only a text that starts with a blank, and a
whole-number column skips the integrality test, which cannot fail on it."""

from __future__ import annotations

import duckdb
import pytest

from judgescope.ingest import validate
from judgescope.schema import INT

# The characters of validate.BLANKS, written out here rather than read from it.
BLANK_CHARS = " \t\n\x0b\x0c\r\u00a0\u3000"
TEXTS = ["", " ", "\t", "\u3000", "\u00a0 \u3000", " x", "x ", " x ", "\u3000x", "x", "xyz", "\u00e9",
         "\u3000\u00a0\t\n\r\x0b\x0c ", "\x0bq", "  \u200b  ", "0"]


@pytest.mark.parametrize("text", TEXTS)
def test_blank_is_empty_or_only_blanks(text):
    con = duckdb.connect()
    got = con.execute(f"SELECT {validate._blank('$t')}", {"t": text}).fetchone()[0]
    assert got is (text.strip(BLANK_CHARS) == ""), repr(text)


def _fails(values, sql_type: str) -> list:
    """Which values break the integrality rule of an INT column read as `sql_type`."""
    con = duckdb.connect()
    con.execute(f"CREATE TABLE raw (v {sql_type})")
    con.executemany("INSERT INTO raw VALUES (?)", [[v] for v in values])
    cast = validate._cast("v", INT, sql_type)
    rules = validate._rules("v", INT, False, True, cast, sql_type)
    rule = "CASE " + " ".join(f"WHEN {c} THEN {k}" for k, (c, _) in enumerate(rules, 1)) + " END"
    return [(v, r and rules[r - 1][1]) for v, r in con.execute(f"SELECT v, {rule} FROM raw").fetchall()]


def test_a_whole_number_column_has_no_integrality_test_and_still_passes_its_values():
    rules = validate._rules("v", INT, False, True, validate._cast("v", INT, "BIGINT"), "BIGINT")
    assert [why for _, why in rules] == ["v is not an integer"]
    assert _fails([1, -7, None, 2 ** 62], "BIGINT") == [(1, None), (-7, None), (None, None), (2 ** 62, None)]


def test_a_fraction_is_still_not_an_integer_when_read_as_a_double_or_a_text():
    assert _fails([1.0, 1.5], "DOUBLE") == [(1.0, None), (1.5, "v is not an integer")]
    assert _fails(["3", "3.5", "x"], "VARCHAR") == [("3", None), ("3.5", "v is not an integer"),
                                                      ("x", "v is not an integer")]


def test_a_huge_whole_number_beyond_bigint_is_named():
    assert _fails([2 ** 70], "HUGEINT") == [(2 ** 70, "v is not an integer")]
