"""What the SQL console lets run, decided by DuckDB's own inspection, never by reading the SQL
text: the parser's statement list (exactly one SELECT), its syntax tree (json_serialize_sql: no
COPY / INSERT … node anywhere, e.g. inside a CTE; no function that reveals server settings or runs
SQL held in a string) and the physical plan (EXPLAIN: no operator that writes or changes state,
no scan of DuckDB's catalogue functions, which hold server paths). Pure: no streamlit."""

from __future__ import annotations

import json
import re

import duckdb

MAX_CHARS = 20_000
# How deep DuckDB's syntax tree (or plan) of a console statement may nest, in JSON levels: a
# subquery is about four, an operator of a chain (1 + 1 + …) about three, an ordinary query
# 10–50. Checked on the text before it is parsed, so Python's recursive json.loads (which stops
# near 1,000 levels, less the caller's stack) never sees a deeper tree.
MAX_TREE_DEPTH = 600


class Refused(ValueError):
    """Console SQL that is not exactly one read-only SELECT, or that ran past a limit."""


# Query nodes a read-only SELECT is made of; any other *_NODE (COPY_QUERY_NODE,
# INSERT_QUERY_NODE, …) is a statement hidden inside the SELECT.
READ_NODES = frozenset({"SELECT_NODE", "SET_OPERATION_NODE", "RECURSIVE_CTE_NODE", "CTE_NODE"})
# Functions refused wherever they appear: settings and catalogue functions reveal server paths
# (temp and extension folders, the views' file lists); query() / query_table() run SQL that is
# held in a string, where this inspection cannot see it.
REFUSED_FUNCTIONS = frozenset({"current_setting", "query", "query_table", "which_secret",
                               "getvariable", "glob", "parquet_metadata", "parquet_file_metadata",
                               "parquet_kv_metadata", "parquet_schema", "parquet_bloom_probe"})
REFUSED_PREFIXES = ("duckdb_", "pragma_")
# Physical operators that write files or change the database or its settings.
WRITING_OPERATORS = frozenset({
    "COPY_TO_FILE", "BATCH_COPY_TO_FILE", "FIXED_BATCH_COPY_TO_FILE", "COPY_DATABASE", "INSERT",
    "BATCH_INSERT", "DELETE", "UPDATE", "MERGE_INTO", "CREATE_TABLE", "CREATE_TABLE_AS",
    "BATCH_CREATE_TABLE_AS", "CREATE_INDEX", "CREATE_SEQUENCE", "CREATE_VIEW", "CREATE_SCHEMA",
    "CREATE_MACRO", "CREATE_TYPE", "CREATE_SECRET", "ALTER", "DROP", "PRAGMA", "TRANSACTION",
    "ATTACH", "DETACH", "EXPORT", "SET", "SET_VARIABLE", "RESET", "LOAD", "EXTENSION",
    "UPDATE_EXTENSIONS", "VACUUM", "EXECUTE", "PREPARE", "EXPLAIN", "EXPLAIN_ANALYZE"})


def statement(sql: str, connect) -> str:
    """The one SELECT of console SQL, checked by DuckDB's parser and syntax tree; Refused otherwise.
    connect(): an empty connection to parse on (db.scratch: every connection is db.py's)."""
    if not isinstance(sql, str) or not sql.strip():
        raise Refused("refused: no SQL")
    if len(sql) > MAX_CHARS:
        raise Refused(f"refused: longer than {MAX_CHARS:,} characters")
    try:
        statements = duckdb.extract_statements(sql)
    except duckdb.Error as err:
        first = str(err).splitlines()[0]
        if "expression depth" in first:  # DuckDB's own limit; its hint (a SET) is refused here
            raise Refused("refused: nested too deeply for DuckDB's parser (more than 1,000 levels "
                          "of expressions or subqueries); write it with WITH … AS steps") from err
        raise Refused(f"refused: does not parse ({redact(first)})") from err
    if len(statements) != 1:
        raise Refused(f"refused: {len(statements)} statements; the console runs exactly one")
    if statements[0].type != duckdb.StatementType.SELECT:
        raise Refused(f"refused: a {statements[0].type.name} statement; only SELECT (or WITH … "
                      "SELECT) runs here")
    text = _without_final_semicolon(statements[0].query)
    check_tree(syntax_tree(text, connect))
    return text


def syntax_tree(sql: str, connect) -> dict:
    """DuckDB's parse tree of one statement (json_serialize_sql, SQL passed as a parameter)."""
    con = connect()
    try:
        tree = loads(con.execute("SELECT json_serialize_sql($sql)", {"sql": sql}).fetchone()[0], "syntax tree")
    finally:
        con.close()
    if tree.get("error"):
        raise Refused(f"refused: not a plain SELECT ({redact(str(tree.get('error_message', '')))})")
    return tree


_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def depth(text: str) -> int:
    """How deep JSON text nests, counted without recursion (brackets outside strings). The text
    is DuckDB's own output, so its strings are closed and the scan is linear."""
    level = deepest = 0
    for token in _JSON_TOKEN.finditer(text):
        t = token.group()
        if t in "[{":
            level += 1
            deepest = max(deepest, level)
        elif t in "]}":
            level -= 1
    return deepest


def loads(text: str, what: str):
    """DuckDB's JSON (a syntax tree or a plan), refused when it nests deeper than MAX_TREE_DEPTH."""
    levels = depth(text)
    if levels <= MAX_TREE_DEPTH:
        try:
            return json.loads(text)
        except RecursionError:  # a caller deep in its own stack: the same answer
            pass
    raise Refused(f"refused: nested too deeply (its {what} is {levels:,} levels deep, the console "
                  f"reads at most {MAX_TREE_DEPTH:,}: about {MAX_TREE_DEPTH // 4} nested subqueries "
                  f"or {MAX_TREE_DEPTH // 3} chained operators); write it with WITH … AS steps")


def _walk(node):
    """Every dict of a JSON value, depth first, without recursion."""
    stack = [node]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            yield node
            stack.extend(reversed(list(node.values())))
        elif isinstance(node, list):
            stack.extend(reversed(node))


def check_tree(tree: dict) -> None:
    """Refuse a syntax tree holding a non-SELECT query node or a refused function."""
    for node in _walk(tree):
        kind = node.get("type")
        if isinstance(kind, str) and kind.endswith("_NODE") and kind not in READ_NODES:
            raise Refused(f"refused: the SELECT holds a {kind.removesuffix('_QUERY_NODE').removesuffix('_NODE')}"
                          " statement; the console only reads")
        name = node.get("function_name")
        if isinstance(name, str) and refused_function(name):
            raise Refused(f"refused: {name}() reveals server settings or runs hidden SQL")


def refused_function(name: str) -> bool:
    name = name.lower()
    return name in REFUSED_FUNCTIONS or name.startswith(REFUSED_PREFIXES)


def operators(plan_json: str) -> list[str]:
    """Every operator name of an EXPLAIN (FORMAT json) plan."""
    names = []
    for node in _walk(loads(plan_json, "plan")):
        if isinstance(node.get("name"), str) and "children" in node:
            names.append(node["name"].strip())
    return names


def check_plan(cursor, sql: str) -> None:
    """Refuse a checked statement whose physical plan writes or scans the catalogue."""
    rows = cursor.execute("EXPLAIN (FORMAT json) " + sql).fetchall()
    for name in (n for row in rows for n in operators(row[1])):
        upper = name.upper()
        if upper in WRITING_OPERATORS:
            raise Refused(f"refused: the plan holds a {upper} step; the console only reads")
        if refused_function(upper):
            raise Refused(f"refused: {name.lower()}() reveals server settings or paths")


_PATH = re.compile(r"(?<![\w.:/])/(?:[^\s'\"/()<>,;:]+/)*[^\s'\"/()<>,;:]+")


def redact(text: str) -> str:
    """An error message without absolute server paths."""
    from judgescope.duck.cache import redact as redact_roots

    return _PATH.sub("<server path>", redact_roots(text))


def _without_final_semicolon(sql: str) -> str:
    """The statement without its closing ';' (and the comments after it), found by DuckDB's
    tokenizer, so the row-cap wrapper can take it as a subquery."""
    tokens = [t for t in duckdb.tokenize(sql) if t[1] != duckdb.token_type.comment]
    if tokens and tokens[-1][1] == duckdb.token_type.operator and sql[tokens[-1][0]] == ";":
        return sql[:tokens[-1][0]]
    return sql
