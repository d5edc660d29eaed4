"""How a shown number is computed: a named query → the views it reads → the cached files
behind them → the pinned sources (dataset, revision, file sha256). The page disclosure under
every page and `python -m judgescope explain QUERY` print the same chain. No streamlit."""

from __future__ import annotations

import re
from pathlib import Path

from judgescope.duck import db


def query_header(name: str) -> str:
    """The query file's leading comment (its purpose and parameters), as one paragraph."""
    lines = []
    for line in db.query_text(name).splitlines():
        if not line.startswith("--"):
            break
        lines.append(line.removeprefix("--").strip())
    return " ".join(lines)


def _relative(path: Path, root: Path) -> str:
    try:
        return str(Path(path).resolve().relative_to(root.resolve()))
    except ValueError:
        return Path(path).name  # never an absolute server path


def _source(loaded) -> dict:
    spec, rep = loaded.spec, loaded.report or {}
    return {"dataset": spec.name, "kind": spec.kind,
            "origin": f"{spec.hub}@{spec.revision}" if spec.hub else f"local {spec.path}",
            "files": [{"file": f["file"], "sha256": f["sha256"]} for f in rep.get("files", [])]}


_MACRO_DEF = re.compile(r"CREATE\s+(?:OR\s+REPLACE\s+)?(?:TEMP\s+)?MACRO\s+([A-Za-z_][A-Za-z0-9_]*)",
                        re.IGNORECASE)


def _macros() -> dict[str, str]:
    """Each macro of queries/macros/*.sql by name → the text of its file."""
    out = {}
    for path in sorted((db.QUERIES_DIR / "macros").glob("*.sql")):
        text = path.read_text(encoding="utf-8")
        out.update({name: text for name in _MACRO_DEF.findall(text)})
    return out


def reads(sql: str, registry, _depth: int = 0) -> list[str]:
    """The views of `registry` (a catalog's views) a query reads, also through the macros it
    calls (queries/macros/)."""
    names = registry.names_in(sql)
    body = re.sub(r"--[^\n]*", "", sql)
    for macro, text in _macros().items():
        if _depth < 4 and text != sql and re.search(rf"\b{macro}\s*\(", body):
            names += [n for n in reads(text, registry, _depth + 1) if n not in names]
    return names


def _view_entry(catalog, collection: str, store, roles: dict, name: str, depth: int) -> dict:
    from judgescope.sources.catalog import cache_root

    view = catalog.views.view(name)
    files = [_relative(p, cache_root()) for p in store.views.get(name, [])]
    entry = {"view": name, "origin": view.origin, "built_by": view.source, "doc": view.doc,
             "cached_files": files, "roles": list(view.source_roles)}
    if view.origin == "ledger":
        entry["source"] = [_source(d) for d in catalog.collection_datasets(collection) if d.ok]
    else:
        entry["source"] = [_source(roles[r]) for r in view.source_roles if r in roles]
    if view.origin == "derived" and depth < 8:  # the build query's own views, all the way down
        entry["reads"] = [_view_entry(catalog, collection, store, roles, n, depth + 1)
                          for n in reads(db.query_text(view.source), catalog.views) if n != name]
    return entry


def chain(catalog, collection: str, query: str) -> dict:
    """The whole chain for one query on one collection (paths relative to the cache root): the
    views it reads and, for a derived view, the views its build query reads, down to the files."""
    store = catalog.store(collection)
    store.ready(db.query_text(query))  # a lazy table the query reads is built, so its files are named
    roles = catalog.roles(collection)
    out = {"query": f"queries/{query}.sql", "purpose": query_header(query), "collection": collection,
           "views": [_view_entry(catalog, collection, store, roles, n, 0)
                     for n in reads(db.query_text(query), catalog.views)]}
    out["unreached"] = sorted({v["view"] for v in _walk(out["views"]) if not v["source"]})
    return out


def _walk(entries):
    for e in entries:
        yield e
        yield from _walk(e.get("reads", []))


def reachable(catalog, collection: str, query: str) -> bool:
    """Whether every view the query reads has a dataset in this collection."""
    roles = catalog.roles(collection)
    return all(r in roles for n in reads(db.query_text(query), catalog.views)
               for r in catalog.views.view(n).source_roles)


def as_text(c: dict) -> str:
    """The chain as lines a newcomer can follow (and paste into a terminal)."""
    lines = [f"{c['query']}: {c['purpose']}"]
    for v in c["views"]:
        lines += _view_lines(v, "  ")
    return "\n".join(lines)


def _view_lines(v: dict, pad: str) -> list[str]:
    how = {"dataset": "validated rows of", "part": f"'{v['built_by']}' file of",
           "derived": f"built by queries/{v['built_by']}.sql from",
           "computed": f"computed by {v['built_by']} from", "ledger": "ledger of"}[v["origin"]]
    lines = [f"{pad}view {v['view']} ({how} the datasets below): {v['doc']}"]
    for f in v["cached_files"]:
        lines.append(f"{pad}  cached file: $JUDGESCOPE_CACHE/{f}")
    for sub in v.get("reads", []):
        lines += _view_lines(sub, pad + "  ")
    for s in v.get("source") or []:
        lines.append(f"{pad}  source: {s['dataset']} ({s['kind']}) {s['origin']}")
        lines += [f"{pad}    {f['file']} sha256 {f['sha256']}" for f in s["files"]]
    if not v.get("source"):
        lines.append(f"{pad}  source: none in this collection (no dataset of role "
                     f"{', '.join(v['roles']) or '?'})")
    return lines


def queries_known() -> list[str]:
    return sorted(p.stem for p in db.QUERIES_DIR.glob("*.sql"))


def safe_name(name: str) -> bool:
    return bool(re.fullmatch(r"[a-z0-9_]+", name)) and name in queries_known()
