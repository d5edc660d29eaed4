"""Validate a dataset's rows against its kind's schema; split them into used rows and a ledger.

The checks are SQL expressions built only from the column names and constants in schema.py
(a whitelist), never from data or user text, and run in DuckDB so they scale to millions of rows.
"""

from __future__ import annotations

import json

import pandas as pd

from judgescope.schema import (ANY, BINARY, INT, NUMBER, NUMBER_PAIR, SCORE, TEXT, TEXT_PAIR,
                               VERDICT, VERDICTS, Schema)
from judgescope.sources import Exclusion, SourceError

SQL_TYPES = {TEXT: "VARCHAR", INT: "BIGINT", NUMBER: "DOUBLE", SCORE: "DOUBLE", VERDICT: "VARCHAR",
             BINARY: "BIGINT", TEXT_PAIR: "VARCHAR[]", NUMBER_PAIR: "DOUBLE[]", ANY: "VARCHAR"}


def q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def columns_of(con, table: str) -> dict[str, str]:
    return {r[0]: r[1] for r in con.execute(f"DESCRIBE {table}").fetchall()}


def check_required(con, schema: Schema, dataset: str, file: str) -> None:
    present = columns_of(con, "raw")
    for name in schema.required:
        if name not in present:
            raise SourceError(f"required column is missing (present: {', '.join(c for c in present if not c.startswith('_'))})",
                              dataset=dataset, file=file, column=name)


def _cast(col: str, type_: str, source_type: str) -> str:
    """Expression casting a raw column to its canonical type (NULL when it cannot)."""
    c = q(col)
    if type_ in (TEXT, VERDICT) or (type_ == ANY and source_type == "VARCHAR"):
        return f"CAST({c} AS VARCHAR)"
    if type_ == ANY:
        return f"CAST(to_json({c}) AS VARCHAR)"
    if type_ in (TEXT_PAIR, NUMBER_PAIR):
        inner = "VARCHAR" if type_ == TEXT_PAIR else "DOUBLE"
        if source_type.endswith("]"):  # already a LIST or ARRAY
            return f"TRY_CAST({c} AS {inner}[])"
        return (f"CASE WHEN json_valid(CAST({c} AS VARCHAR)) AND json_type(CAST({c} AS VARCHAR)) = 'ARRAY' "
                f"THEN TRY_CAST(from_json(CAST({c} AS VARCHAR), '[\"{inner}\"]') AS {inner}[]) END")
    if type_ in (INT, BINARY):
        return f"TRY_CAST(TRY_CAST({c} AS DOUBLE) AS BIGINT)" if source_type == "VARCHAR" \
            else f"TRY_CAST({c} AS BIGINT)"
    return f"TRY_CAST({c} AS DOUBLE)"


def _rules(col: str, type_: str, required: bool, nullable: bool, cast: str) -> list[tuple[str, str]]:
    """(SQL condition, reason) pairs for one column; the first that holds excludes the row."""
    c = q(col)
    rules = []
    if not nullable:
        rules.append((f"{c} IS NULL", f"missing {col}"))
    if type_ in (INT, BINARY, NUMBER, SCORE, TEXT_PAIR, NUMBER_PAIR):
        word = {INT: "an integer", BINARY: "0 or 1", TEXT_PAIR: "a list of 2 texts",
                NUMBER_PAIR: "a list of 2 numbers"}.get(type_, "a number")
        rules.append((f"{c} IS NOT NULL AND {cast} IS NULL", f"{col} is not {word}"))
    if type_ in (INT, BINARY):
        rules.append((f"{cast} IS NOT NULL AND TRY_CAST({c} AS DOUBLE) <> {cast}",
                      f"{col} is not {'0 or 1' if type_ == BINARY else 'an integer'}"))
    if type_ in (NUMBER, SCORE):
        rules.append((f"isnan({cast})", f"{col} is NaN"))
        rules.append((f"isinf({cast})", f"{col} is infinite"))
    if type_ == SCORE:
        rules.append((f"{cast} < 0 OR {cast} > 100", f"{col} outside 0–100"))
    if type_ == BINARY:
        rules.append((f"{cast} NOT IN (0, 1)", f"{col} is not 0 or 1"))
    if type_ == VERDICT:
        allowed = ", ".join(f"'{v}'" for v in VERDICTS)
        rules.append((f"{c} IS NOT NULL AND CAST({c} AS VARCHAR) NOT IN ({allowed})",
                      f"{col} is not one of {'/'.join(VERDICTS)}"))
    if type_ in (TEXT_PAIR, NUMBER_PAIR):
        rules.append((f"{cast} IS NOT NULL AND len({cast}) <> 2", f"{col} must hold exactly 2 values"))
        if type_ == NUMBER_PAIR:
            rules.append((f"list_has_any({cast}, [NULL::DOUBLE]) OR list_count({cast}) <> len({cast})",
                          f"{col} has a missing value"))
    return rules


def build_checked(con, schema: Schema, exclusions: tuple[Exclusion, ...]) -> dict[str, str]:
    """Create table checked(raw columns…, _reason, _column, _value); return canonical casts."""
    present = columns_of(con, "raw")
    casts, cases = {}, []
    for i, ex in enumerate(exclusions):
        if ex.column in present:  # a declared exclusion comes first: it is the true reason
            cases.append((f"list_contains($ex{i}, CAST({q(ex.column)} AS VARCHAR))", ex.reason, ex.column))
    for col in schema.columns:
        if col.name not in present:
            continue
        casts[col.name] = _cast(col.name, col.type, present[col.name])
        for cond, reason in _rules(col.name, col.type, col.required, col.nullable, casts[col.name]):
            cases.append((cond, reason, col.name))
    reason = "CASE " + " ".join(f"WHEN {cond} THEN '{r.replace(chr(39), chr(39) * 2)}'"
                                for cond, r, _ in cases) + " END" if cases else "NULL"
    column = "CASE " + " ".join(f"WHEN {cond} THEN '{c}'" for cond, _, c in cases) + " END" \
        if cases else "NULL"
    params = {f"ex{i}": list(ex.values) for i, ex in enumerate(exclusions) if ex.column in present}
    con.execute(f"CREATE OR REPLACE TABLE checked AS SELECT *, {reason} AS _reason, "
                f"{column} AS _column FROM raw", params)
    _flag_duplicates(con, schema, present)
    return casts


def _flag_duplicates(con, schema: Schema, present: dict) -> None:
    """Later rows repeating a unique key are excluded; the first usable occurrence stays."""
    if not schema.unique or not all(k in present for k in schema.unique):
        return
    key = ", ".join(q(k) for k in schema.unique)
    label = " + ".join(schema.unique)
    con.execute(f"""
        UPDATE checked SET _reason = 'duplicate {label}', _column = '{schema.unique[0]}'
        FROM (SELECT _file AS f, _row AS r, row_number() OVER (PARTITION BY {key}
                     ORDER BY _file, _row) AS k
              FROM checked WHERE _reason IS NULL) d
        WHERE checked._file = d.f AND checked._row = d.r AND d.k > 1""")


def clean_select(con, schema: Schema, casts: dict[str, str]) -> str:
    """SELECT list of the used rows: every schema column (NULL when absent), then the extras."""
    present = columns_of(con, "raw")
    parts = ["_file", "_row"]
    for col in schema.columns:
        sql_type = SQL_TYPES[col.type]
        expr = casts.get(col.name, f"CAST(NULL AS {sql_type})")
        parts.append(f"{expr} AS {q(col.name)}")
    known = {c.name for c in schema.columns} | {"_file", "_row"}
    parts += [q(c) for c in present if c not in known]
    return ", ".join(parts)


def ledger_select(schema: Schema, dataset: str, present: dict) -> tuple[str, dict]:
    key = schema.unique[0] if schema.unique and schema.unique[0] in present else None
    record = f"CAST({q(key)} AS VARCHAR)" if key else "CAST(NULL AS VARCHAR)"
    value = "CASE _column " + " ".join(
        f"WHEN '{c}' THEN left(CAST({q(c)} AS VARCHAR), 300)" for c in present
        if not c.startswith("_") and "'" not in c) + " END"
    sql = (f"SELECT $dataset AS dataset, _file AS file, _row AS row, _column AS column, "
           f"_reason AS reason, {value} AS value, {record} AS record_id "
           f"FROM checked WHERE _reason IS NOT NULL")
    return sql, {"dataset": dataset}


def normalize_pairwise(con) -> None:
    """TransEvalnia's published sample and other pair files: `translations`, scores as a dict."""
    cols = columns_of(con, "raw")
    if "tgt_texts" in cols and cols.get("human_scores", "").endswith("[]"):
        return
    frame = con.execute("SELECT * FROM raw").df()
    if "tgt_texts" not in frame and "translations" in frame:
        frame = frame.rename(columns={"translations": "tgt_texts"})
    if "tgt_texts" in frame:
        frame["tgt_texts"] = frame["tgt_texts"].map(_json_list)
    if "human_scores" in frame:
        translators = frame["translators"].map(_json_list) if "translators" in frame else None
        frame["human_scores"] = [
            _scores(v, None if translators is None else translators.iloc[i])
            for i, v in enumerate(frame["human_scores"])]
    con.register("normalized", frame)
    con.execute("CREATE OR REPLACE TABLE raw AS SELECT * FROM normalized")
    con.unregister("normalized")


def _json_list(value):
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            return None
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return None
    return [None if v is None else str(v) for v in list(value)]


def _scores(value, translators):
    """A list stays a list; a dict keyed by translator follows the translators' order."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            return None
    if isinstance(value, dict):
        keys = translators if translators and all(t in value for t in translators) else list(value)
        value = [value[k] for k in keys]
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return None
    out = []
    for v in list(value):
        try:
            out.append(None if v is None else float(v))
        except (TypeError, ValueError):
            return None
    return out
