"""Validate a dataset's rows against its kind's schema; split them into used rows and a ledger.

The checks are SQL expressions built only from the column names and constants in schema.py
(a whitelist), never from data or user text, and run in DuckDB so they scale to millions of rows.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace


from judgescope.schema import (HUMAN_ITEM_COLUMNS, HUMAN_RATING_VALUES, ANY, BINARY, DIGEST, INT, NUMBER,
                               NUMBER_PAIR, RANKING_METHODS, SCORE, TEXT,
                               TEXT_PAIR, VERDICT, VERDICTS, Schema)
from judgescope.ingest.manifest import Exclusion, SourceError
from judgescope.ingest.readers_base import replace_table

SQL_TYPES = {TEXT: "VARCHAR", DIGEST: "VARCHAR", INT: "BIGINT", NUMBER: "DOUBLE", SCORE: "DOUBLE", VERDICT: "VARCHAR",
             BINARY: "BIGINT", TEXT_PAIR: "VARCHAR[]", NUMBER_PAIR: "DOUBLE[]", ANY: "VARCHAR"}


def q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def columns_of(con, table: str) -> dict[str, str]:
    return {r[0]: r[1] for r in con.execute(f"DESCRIBE {table}").fetchall()}


def check_required(con, schema: Schema, dataset: str, file: str) -> None:
    """Every required column (and one-of group) the data lacks, named at once, with the kinds
    the data does fit."""
    from judgescope.ingest.kinds import candidates, missing_columns

    present = [c for c in columns_of(con, "raw") if not c.startswith("_")]
    missing = missing_columns(schema, present)
    if not missing:
        return
    fits = [k for k, miss in candidates(present).items() if not miss]
    hint = f"; it fits kind {', '.join(fits)} (--kind or kind = …)" if fits else ""
    plural = "s are" if len(missing) > 1 else " is"
    raise SourceError(f"required column{plural} missing (present: {', '.join(present)}){hint}",
                      dataset=dataset, file=file, column=", ".join(missing))


# A number written as text: DuckDB's cast also accepts digit separators ("1_5" → 15), so text
# must look like a plain decimal number (or nan/inf, which their own rules then name).
NUMBER_TEXT = r"^\s*[+-]?((\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?|nan|inf|infinity)\s*$"
# Whitespace trimmed from stored digests (and blank-text checks): space, tab, LF, VT, FF, CR,
# no-break space, ideographic space.
BLANKS = "' ' || chr(9) || chr(10) || chr(11) || chr(12) || chr(13) || chr(160) || chr(12288)"


def _numeric_text(c: str, source_type: str) -> str:
    """The column as text fit for a numeric cast: NULL when it is not a plain number."""
    if source_type == "VARCHAR":
        return f"CASE WHEN regexp_matches({c}, '{NUMBER_TEXT}', 'i') THEN {c} END"
    return c


def _already_normal(v: str) -> str:
    """Whether a digest text is its own normal form: lower-case, no blank at either end, not
    empty. Almost every stored digest is, and this test is a quarter of the cost of the trim
    (5.9 s against 1.6 s for two digest columns of 10M rows: the trim of eight blanks is dear)."""
    return (f"(lower({v}) = {v} AND {v} <> '' AND NOT contains({BLANKS}, left({v}, 1)) "
            f"AND NOT contains({BLANKS}, right({v}, 1)))")


def _normal_digest(v: str) -> str:
    """A digest text normalised: lower-cased, trimmed of BLANKS, NULL when nothing is left (a
    value already normal is kept as it is, without the trim)."""
    return f"CASE WHEN {_already_normal(v)} THEN {v} ELSE nullif(lower(trim({v}, {BLANKS})), '') END"


def _cast(col: str, type_: str, source_type: str) -> str:
    """Expression casting a raw column to its canonical type (NULL when it cannot)."""
    c = q(col)
    if type_ == DIGEST:  # normalised once, here: every page then compares the same value
        return _normal_digest(f"CAST({c} AS VARCHAR)")
    if type_ in (TEXT, VERDICT) or (type_ == ANY and source_type == "VARCHAR"):
        return f"CAST({c} AS VARCHAR)"
    if source_type == "BOOLEAN":  # true/false is no score, count or 0/1 flag: it is listed
        return f"CAST(NULL AS {SQL_TYPES[type_]})"
    if type_ == ANY:
        return f"CAST(to_json({c}) AS VARCHAR)"
    if type_ in (TEXT_PAIR, NUMBER_PAIR):
        inner = "VARCHAR" if type_ == TEXT_PAIR else "DOUBLE"
        if source_type.endswith("]"):  # already a LIST or ARRAY
            return f"TRY_CAST({c} AS {inner}[])"
        return (f"CASE WHEN json_valid(CAST({c} AS VARCHAR)) AND json_type(CAST({c} AS VARCHAR)) = 'ARRAY' "
                f"THEN TRY_CAST(from_json(CAST({c} AS VARCHAR), '[\"{inner}\"]') AS {inner}[]) END")
    n = _numeric_text(c, source_type)
    if type_ in (INT, BINARY):
        return f"TRY_CAST(TRY_CAST({n} AS DOUBLE) AS BIGINT)" if source_type == "VARCHAR" \
            else f"TRY_CAST({c} AS BIGINT)"
    return f"TRY_CAST({n} AS DOUBLE)"


# Column types whose values are whole numbers as read: casting them to BIGINT loses nothing, or
# fails (a HUGEINT out of range), which the rule "is not an integer" names.
WHOLE_TYPES = frozenset({"BOOLEAN", "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT",
                         "USMALLINT", "UINTEGER", "UBIGINT", "UHUGEINT"})


def _blank(v: str) -> str:
    """Whether a text is empty or only BLANKS. The trim is evaluated only for a text that starts
    with a blank (DuckDB evaluates AND on the rows its left side kept): a text that does not
    cannot trim to ''. The trim of eight blanks on every id, language and unit was 2.2 s of the
    3.6 s check of a 10M-row audit."""
    return f"({v} = '' OR (contains({BLANKS}, left({v}, 1)) AND trim({v}, {BLANKS}) = ''))"


def _rules(col: str, type_: str, required: bool, nullable: bool, cast: str,
           source_type: str = "VARCHAR") -> list[tuple[str, str]]:
    """(SQL condition, reason) pairs for one column; the first that holds excludes the row.
    `source_type`: the column's type as read (a whole-number column needs no integrality test)."""
    c = q(col)
    rules = []
    if not nullable:
        rules.append((f"{c} IS NULL", f"missing {col}"))
        if type_ in (TEXT, VERDICT):
            rules.append((_blank(f"CAST({c} AS VARCHAR)"), f"{col} is blank"))
    if type_ in (INT, BINARY, NUMBER, SCORE, TEXT_PAIR, NUMBER_PAIR):
        word = {INT: "an integer", BINARY: "0 or 1", TEXT_PAIR: "a list of 2 texts",
                NUMBER_PAIR: "a list of 2 numbers"}.get(type_, "a number")
        rules.append((f"{c} IS NOT NULL AND {cast} IS NULL", f"{col} is not {word}"))
    if type_ in (INT, BINARY) and source_type.upper() not in WHOLE_TYPES:
        as_text = _numeric_text(f'CAST({c} AS VARCHAR)', 'VARCHAR')
        rules.append((f"{cast} IS NOT NULL AND TRY_CAST({as_text} AS DOUBLE) <> {cast}",
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
            rules.append((f"len(list_filter({cast}, lambda x: isnan(x) OR isinf(x))) > 0",
                          f"{col} has a value that is not a finite number"))
    return rules


@dataclass(frozen=True)
class Checks:
    """A dataset's checks, computed once (rule_checks): `rule` is the SQL expression, over a row
    of `raw`, of the first rule it breaks (1-based; NULL for a row that passes), whose reason
    and column are reasons[rule - 1] and columns[rule - 1]; `params` binds the declared
    exclusions' values it reads. `dropped`: rows a later check excluded (a repeated unique key,
    a rating without a value or a rater's second rating), kept in table `dropped(_file, _row)`.
    The rows used are those of `raw` that break no rule and were not dropped (usable_rows)."""
    casts: dict[str, str]
    rule: str
    params: dict
    reasons: list[str]
    columns: list[str]
    dropped: int = 0


def rule_checks(con, schema: Schema, exclusions: tuple[Exclusion, ...]) -> Checks:
    """The checks of `raw`: every rule of every present column (a declared exclusion first: it
    is the true reason), as one CASE. Exclusion values, reasons and column names are bound
    ($ex0…, $reasons, $columns); identifiers are quoted."""
    present = columns_of(con, "raw")
    casts, cases, params = {}, [], {}
    for i, ex in enumerate(exclusions):
        if ex.column in present:
            params[f"ex{i}"] = list(ex.values)
            cases.append((f"list_contains($ex{i}, CAST({q(ex.column)} AS VARCHAR))", ex.reason, ex.column))
    for col in schema.columns:
        if col.name not in present:
            continue
        casts[col.name] = _cast(col.name, col.type, present[col.name])
        for cond, reason in _rules(col.name, col.type, col.required, col.nullable, casts[col.name],
                                   present[col.name]):
            cases.append((cond, reason, col.name))
    rule = ("CASE " + " ".join(f"WHEN {cond} THEN {k}" for k, (cond, _, _) in enumerate(cases, 1))
            + " END") if cases else "CAST(NULL AS INTEGER)"
    return Checks(casts, rule, params, [r for _, r, _ in cases], [c for _, _, c in cases])


def build_checked(con, schema: Schema, exclusions: tuple[Exclusion, ...]) -> Checks:
    """Check `raw` in one pass: table excluded(raw columns…, _reason, _column) holds every row a
    rule excludes, in full and as read (the ledger and the excluded-rows file read it, a few
    rows instead of the whole dataset); then the repeated unique keys are dropped (table
    `dropped`, their rows added to `excluded`). No copy of the used rows is made: the sorted
    write reads them from `raw` through usable_rows. The rule is evaluated again where the few
    excluded rows take their reason, so no helper column of ours meets the data's columns."""
    checks = rule_checks(con, schema, exclusions)
    rule = checks.rule
    con.execute(f"CREATE OR REPLACE TABLE excluded AS SELECT *, CAST($reasons[{rule}] AS VARCHAR) AS _reason, "
                f"CAST($columns[{rule}] AS VARCHAR) AS _column FROM raw WHERE ({rule}) IS NOT NULL",
                {**checks.params, "reasons": checks.reasons, "columns": checks.columns})
    con.execute("CREATE OR REPLACE TABLE dropped (_file VARCHAR, _row BIGINT)")
    return _flag_duplicates(con, schema, checks)


def usable_rows(checks: Checks, by_lineage: bool = False) -> str:
    """FROM clause of the rows used. by_lineage, for a kind whose (_file, _row) names one row:
    `raw` less every excluded row's lineage (a hash probe into the few excluded rows instead of
    the rules again); else the rows of `raw` that break no rule, less the dropped ones (an
    anti-join only when some were dropped: a filter alone keeps the rows in file order, which
    an anti-join may not). Only a nested snapshot's units share a lineage (their instance's)."""
    if by_lineage:
        return "raw ANTI JOIN excluded USING (_file, _row)"
    anti = " ANTI JOIN dropped USING (_file, _row)" if checks.dropped else ""
    return f"raw{anti} WHERE ({checks.rule}) IS NULL"


def drop_rows(con, checks: Checks, rows_sql: str, reason: str, column: str) -> Checks:
    """Drop the used rows `rows_sql` selects (_file, _row of rows of usable_rows), with their
    reason: listed in `dropped`, their full rows added to `excluded`. (_file, _row) names one
    row in every kind a later check applies to (a snapshot, whose nested form's units share
    their instance's lineage, has neither a unique key nor ratings)."""
    con.execute(f"CREATE OR REPLACE TEMP TABLE newly AS {rows_sql}")
    n = con.execute("SELECT count(*) FROM newly").fetchone()[0]
    if not n:
        return checks
    con.execute("INSERT INTO dropped SELECT _file, _row FROM newly")
    con.execute("INSERT INTO excluded BY NAME SELECT *, $reason AS _reason, $column AS _column "
                "FROM raw SEMI JOIN newly USING (_file, _row)", {"reason": reason, "column": column})
    return replace(checks, dropped=checks.dropped + n)


def _flag_duplicates(con, schema: Schema, checks: Checks) -> Checks:
    """Later rows repeating a unique key are excluded; the first usable occurrence stays."""
    present = columns_of(con, "raw")
    if not schema.unique or not all(k in present for k in schema.unique):
        return checks
    return _drop_repeats(con, checks, schema.unique, f"duplicate {' + '.join(schema.unique)}",
                         schema.unique[0])


def _drop_repeats(con, checks: Checks, key: tuple[str, ...], reason: str, column: str) -> Checks:
    """Drop every used row whose `key` an earlier used row (in file order) already has. The keys
    that repeat are found first by a hash aggregate (usually none), and only their rows are
    ranked in file order: a window over every row costs half as much again at 10M rows."""
    by = ", ".join(q(k) for k in key)
    same = " AND ".join(f"u.{q(k)} IS NOT DISTINCT FROM r.{q(k)}" for k in key)
    rows = (f"WITH usable AS (SELECT _file, _row, {by} FROM {usable_rows(checks, by_lineage=True)}), "
            f"repeated AS (SELECT {by} FROM usable GROUP BY ALL HAVING count(*) > 1) "
            f"SELECT _file, _row FROM (SELECT _file, _row, row_number() OVER (PARTITION BY {by} "
            f"ORDER BY _file, _row) AS k FROM usable u SEMI JOIN repeated r ON {same}) WHERE k > 1")
    return drop_rows(con, checks, rows, reason, column)


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
    """The ledger rows of table excluded; every column's value can be shown (names are bound)."""
    key = schema.unique[0] if schema.unique and schema.unique[0] in present else None
    record = f"CAST({q(key)} AS VARCHAR)" if key else "CAST(NULL AS VARCHAR)"
    names = [c for c in present if c not in ("_file", "_row")]
    params = {"dataset": dataset} | {f"v{k}": c for k, c in enumerate(names)}
    value = ("CASE " + " ".join(f"WHEN _column = $v{k} THEN left(CAST({q(c)} AS VARCHAR), 300)"
                                for k, c in enumerate(names)) + " END") if names else "NULL"
    sql = (f"SELECT $dataset AS dataset, _file AS file, _row AS row, _column AS column, "
           f"_reason AS reason, {value} AS value, {record} AS record_id "
           f"FROM excluded")
    return sql, params


def digest_notes(con, schema: Schema, present: dict) -> dict[str, int]:
    """How many stored digests of used rows validation normalised (lower-cased or trimmed), per
    column: those of every row read less those of the excluded rows (a scan of the digest
    columns alone, and of the few excluded rows)."""
    cols = [c.name for c in schema.columns if c.type == DIGEST and c.name in present]
    if not cols:
        return {}
    text = {c: f"CAST({q(c)} AS VARCHAR)" for c in cols}
    counts = ", ".join(f"count(*) FILTER (WHERE NOT coalesce({_already_normal(text[c])}, true) "
                       f"AND {text[c]} <> {_normal_digest(text[c])})" for c in cols)
    read, excluded = (con.execute(f"SELECT {counts} FROM {t}").fetchone() for t in ("raw", "excluded"))
    return {c: int(a - b) for c, a, b in zip(cols, read, excluded) if a - b}


def normalize_pairwise(con) -> None:
    """TransEvalnia's published sample and other pair files: `translations`, scores as a dict.

    Both columns leave as JSON text; a value that is no list (or dict of scores) keeps its text,
    so validation lists its row ("… is not a list of 2 …") instead of reading it as missing."""
    _decisions_as_text(con)
    cols = columns_of(con, "raw")
    if "tgt_texts" in cols and cols.get("human_scores", "").endswith("[]"):
        return
    frame = con.execute("SELECT * FROM raw").df()
    if "tgt_texts" not in frame and "translations" in frame:
        frame = frame.rename(columns={"translations": "tgt_texts"})
    if "tgt_texts" in frame:
        frame["tgt_texts"] = [_as_json(_json_list(v), v) for v in frame["tgt_texts"]]
    if "human_scores" in frame:
        translators = frame["translators"].map(_json_list) if "translators" in frame else None
        frame["human_scores"] = [
            _as_json(_scores(v, None if translators is None else translators.iloc[i]), v)
            for i, v in enumerate(frame["human_scores"])]
    replace_table(con, "raw", frame)


def _decisions_as_text(con) -> None:
    """Model decision columns ("<method>/<model>") leave as text whatever the file stored: a
    list or number of a Parquet file becomes its JSON text, as a JSONL file's already is, so
    the decisions of every column can be read together (they are unpivoted into one column)."""
    odd = [c for c, t in columns_of(con, "raw").items()
           if c.partition("/")[0] in RANKING_METHODS and c.partition("/")[2] and t != "VARCHAR"]
    if odd:
        texts = ", ".join(f"CAST(to_json({q(c)}) AS VARCHAR) AS {q(c)}" for c in odd)
        replace_table(con, "raw", con.execute(f"SELECT * REPLACE ({texts}) FROM raw").df())


_BAD = object()  # a value that is not the list it should be


def _missing(value) -> bool:
    import pandas as pd

    return value is None or (isinstance(value, float) and pd.isna(value))


def _as_json(value, original):
    """JSON text of a parsed list (NaN/inf written as such: not valid JSON, so listed); the
    original text when it could not be parsed; None when missing."""
    if value is _BAD:
        return original if isinstance(original, str) else json.dumps(str(original))
    return None if value is None else json.dumps(value)


def _parsed(value):
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return _BAD
    return value


def _json_list(value):
    value = _parsed(value)
    if value is _BAD or _missing(value):
        return None if value is not _BAD else _BAD
    if isinstance(value, (str, dict, int, float, bool)) or not hasattr(value, "__iter__"):
        return _BAD
    return [None if v is None else str(v) for v in list(value)]


def _scores(value, translators):
    """A list stays a list; a dict keyed by translator follows the translators' order."""
    value = _parsed(value)
    if isinstance(value, dict):
        names = translators if isinstance(translators, list) else None
        keys = names if names and all(t in value for t in names) else list(value)
        value = [value[k] for k in keys]
    if value is _BAD or _missing(value):
        return None if value is not _BAD else _BAD
    if isinstance(value, (str, int, float, bool)) or not hasattr(value, "__iter__"):
        return _BAD
    out = []
    for v in list(value):
        if isinstance(v, bool):
            return _BAD
        try:
            out.append(None if v is None else float(v))
        except (TypeError, ValueError):
            return _BAD
    return out


def flag_ratings(con, checks: Checks, present: dict) -> Checks:
    """Human ratings: a row with no rating value, a row with no item (every item column the file
    has empty: its ratings would all be pooled as one item under an empty key, agreeing or not
    with ratings of other texts), and a rater's later rating of an item already rated, go to the
    ledger (agreement statistics need one value per rater per item)."""
    values = [c for c in HUMAN_RATING_VALUES if c in present]
    empty = " AND ".join(f"{q(c)} IS NULL" for c in values)
    checks = drop_rows(con, checks, f"SELECT _file, _row FROM {usable_rows(checks, by_lineage=True)} WHERE {empty}",
                       f"no rating: {', '.join(values)} all empty", values[0])
    items = [c for c in HUMAN_ITEM_COLUMNS if c in present]
    if items:
        no_item = " AND ".join(f"coalesce(trim(CAST({q(c)} AS VARCHAR)), '') = ''" for c in items)
        checks = drop_rows(con, checks,
                           f"SELECT _file, _row FROM {usable_rows(checks, by_lineage=True)} WHERE {no_item}",
                           f"no item: {', '.join(items)} all empty", items[0])
    key = tuple(c for c in ("rater", *HUMAN_ITEM_COLUMNS) if c in present)
    return _drop_repeats(con, checks, key, "duplicate rater + item", "rater")
