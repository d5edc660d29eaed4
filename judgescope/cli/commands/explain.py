"""How a number or a query is computed: the functions that make a headline number, the queries
they read, those queries' views (derived views down to their inputs), the cached files and the
pinned sources. Exit 2 when the chain cannot reach a source in the collection."""

from __future__ import annotations

import argparse
import json

from judgescope.cli import EXIT_OK, EXIT_UNUSABLE


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("query", nargs="?", help="a headline number's name or a query name (a file in "
                   "queries/, without .sql); without it, both lists are printed")
    p.add_argument("--collection", help="the manifest collection (default: the first one whose "
                   "datasets the query reads)")
    p.add_argument("--json", action="store_true", help="print the chain as JSON")


def _listing() -> str:
    from judgescope.sources import explain
    from judgescope import headlines as numbers
    lines = [f"{name:38} {_first_sentence(explain.query_header(name))}"
             for name in explain.queries_known()]
    lines.append("`judgescope explain QUERY` shows how one is computed: its views, cached files and sources")
    lines.append("`judgescope explain NUMBER` shows a headline number's functions too; the numbers:")
    lines += [f"`{n.name}` {n.title}" for n in numbers.NUMBERS]
    return "\n".join(lines)


def _first_sentence(text: str, limit: int = 100) -> str:
    head = text.split(". ")[0] if text else ""
    return head if len(head) <= limit else head[:limit - 1] + "…"


def run(args) -> int:
    from judgescope.sources import explain
    from judgescope.wiring import get_catalog
    from judgescope import navigation
    from judgescope import headlines as numbers
    if not args.query:
        print(_listing())
        return EXIT_OK
    wanted = numbers.number(args.query) if args.query in numbers.names() else None
    if wanted is None and not explain.safe_name(args.query):
        print(f"no number or query {args.query!r}.\n{_listing()}")
        return EXIT_UNUSABLE
    queries = wanted.queries if wanted else (args.query,)
    cat = get_catalog()
    names = list(cat.manifest.collections)
    if args.collection is not None and args.collection not in names:
        print(f"no collection {args.collection!r}; known: {', '.join(names)}")
        return EXIT_UNUSABLE
    fits = [c for c in names if all(explain.reachable(cat, c, q) for q in queries)]
    collection = args.collection or (fits[0] if fits else None)
    if collection not in fits:
        which = f"collection {collection!r} lacks" if collection else "no collection of this manifest has"
        print(f"{args.query}: {which} a dataset that {', '.join(queries)} read(s), so the chain "
              "reaches no pinned source" + (f"; try --collection {fits[0]}" if fits else ""))
        return EXIT_UNUSABLE
    chains = [explain.chain(cat, collection, q) for q in queries]
    if args.json:
        out = chains[0] if not wanted else {
            "number": wanted.name, "title": wanted.title, "page": navigation.page(wanted.page).path,
            "functions": list(wanted.functions), "collection": collection, "queries": chains}
        print(json.dumps(out, indent=1, ensure_ascii=False))
        return EXIT_OK
    if wanted:
        print(f"{wanted.title} ({navigation.page(wanted.page).path}, collection {collection})")
        print("  computed by: " + (" → ".join(wanted.functions) or "the query itself (a count)"))
    print("\n".join(explain.as_text(c) for c in chains))
    return EXIT_OK
