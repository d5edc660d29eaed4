"""How a query's numbers are computed: its views, their cached files and the pinned sources.

Without a query, every query is listed with the first sentence of its purpose."""

from __future__ import annotations

import argparse
import json

from judgescope.sources import explain
from judgescope.sources.catalog import get_catalog
from judgescope.cli import EXIT_OK, EXIT_UNUSABLE


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("query", nargs="?", help="a query name (a file in queries/, without .sql); "
                   "leave it out to list them")
    p.add_argument("--collection", help="the manifest collection (default: the first)")
    p.add_argument("--json", action="store_true", help="print the chain as JSON")


def run(args) -> int:
    if args.query is None:
        for name in explain.queries_known():
            print(f"{name:38} {_first_sentence(explain.query_header(name))}")
        print("`judgescope explain QUERY` shows how one is computed: its views, cached files and sources")
        return EXIT_OK
    if not explain.safe_name(args.query):
        print(f"no query {args.query!r}; known: {', '.join(explain.queries_known())}")
        return EXIT_UNUSABLE
    cat = get_catalog()
    names = list(cat.manifest.collections)
    collection = args.collection or (names[0] if names else None)
    if collection not in cat.manifest.collections:
        print(f"no collection {args.collection!r}; known: {', '.join(names)}")
        return EXIT_UNUSABLE
    c = explain.chain(cat, collection, args.query)
    print(json.dumps(c, indent=1, ensure_ascii=False) if args.json else explain.as_text(c))
    return EXIT_OK


def _first_sentence(text: str, limit: int = 100) -> str:
    head = text.split(". ")[0] if text else ""
    return head if len(head) <= limit else head[:limit - 1] + "…"
