"""Write SUMMARY.json, BY_LANGUAGE.csv and BOOTSTRAP.json of a judge audit (the pages' numbers).

Exit 0 when every row was used, 1 when rows were excluded (the tables are still written), 2 when
the audit is unusable."""

from __future__ import annotations

import argparse
import json
import math
import sys
import threading
from pathlib import Path

import pandas as pd

from judgescope.audit import summary as audit
from judgescope.sources.catalog import open_store
from judgescope.cli import add_source_arguments, load_source, print_ledger
from judgescope.sources.manifest import SourceError

SUMMARY_KEYS = ["n", "mean", "median", "sd"] + audit.threshold_columns()


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_source_arguments(p, "audit")
    p.add_argument("--out", default=".", help="folder for the three files (default: here)")
    p.add_argument("--seed", type=int, default=audit.DEFAULT_SEED, help="bootstrap seed")
    p.add_argument("--resamples", type=int, default=audit.DEFAULT_RESAMPLES,
                   help="bootstrap resamples")


def _clean(value):
    """JSON-ready scalar: numpy → Python, NaN → None; floats keep full precision."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if hasattr(value, "item"):
        value = value.item()
        return None if isinstance(value, float) and math.isnan(value) else value
    return value


def _record(row, keys) -> dict:
    return {k: _clean(row[k]) for k in keys}


def summary(run) -> dict:
    """SUMMARY.json content from the same queries and functions the Distributions page uses."""
    counts = run("audit_score_counts", facet="none")
    units = audit.unit_summary(counts, shares=False)
    per_unit = units[units.unit != audit.OVERALL]
    overall = units[units.unit == audit.OVERALL].iloc[0]
    origins = run("audit_origin_counts").groupby("score_origin")["n"].sum()
    copies = run("audit_exact_copy_counts").groupby("unit")[["hashed", "exact_copies"]].sum()
    return {
        "rows": int(counts["n"].sum()),
        "by_unit": {r["unit"]: _record(r, SUMMARY_KEYS) for _, r in per_unit.iterrows()},
        "overall": _record(overall, ["n", "mean"]),
        "score_origin": {str(k): int(v) for k, v in origins.sort_values(ascending=False).items()},
        # None when the unit's rows carry no hashes: an exact copy cannot be told apart then.
        "exact_copies": {u: (int(copies.exact_copies[u]) if copies.hashed[u] else None)
                         for u in per_unit.unit},
    }


def by_language(run) -> pd.DataFrame:
    return audit.language_summary(run("audit_score_counts", facet="none"))


def _intervals(frame: pd.DataFrame) -> dict:
    """One interval and the method that drew it (exact counts, or score bins with their bound)."""
    return {"mean": _clean(frame["mean"]), "low": _clean(frame["low"]), "high": _clean(frame["high"]),
            "method": frame["method"]}


class Progress:
    """'bootstrap (D distinct scores, R resamples): k/N groups' on stderr, rewritten in place.
    A group costs at most stats.MAX_CATEGORIES draws per resample (float scores are binned), so
    this matters only with many groups."""

    def __init__(self, total: int, distinct: int, resamples: int, file=None):
        self.total, self.done, self.file = total, 0, file or getattr(sys.stderr, "raw", sys.stderr)
        self.head = f"bootstrap ({distinct:,} distinct scores, {resamples:,} resamples)"
        self.lock = threading.Lock()
        self._show()

    def _show(self) -> None:
        print(f"\r{self.head}: {self.done:,}/{self.total:,} groups", end="", file=self.file,
              flush=True)

    def step(self) -> None:
        with self.lock:
            self.done += 1
            self._show()

    def close(self) -> None:
        print(file=self.file, flush=True)


GROUPINGS = (["unit"], [], ["target_language", "unit"], ["target_language"])


def bootstrap(run, resamples: int, seed: int) -> dict:
    counts = run("audit_score_counts", facet="none")
    total = sum(counts.groupby(by).ngroups if by else 1 for by in GROUPINGS)
    progress = Progress(total, counts["score"].nunique(), resamples)
    units, overall, langs, whole = (
        audit.bootstrap_table(counts, by, resamples, seed, on_group=progress.step, method=True)
        for by in GROUPINGS)
    overall = overall.iloc[0]
    progress.close()
    out = {"method": "percentile", "detail": audit.BOOTSTRAP_METHOD, "resamples": resamples,
           "seed": seed, "level": audit.LEVEL,
           "by_unit": {r["unit"]: _intervals(r) for _, r in units.iterrows()},
           "overall": _intervals(overall), "by_language": {}}
    for _, r in langs.iterrows():
        out["by_language"].setdefault(r["target_language"], {})[r["unit"]] = _intervals(r)
    for _, r in whole.iterrows():
        out["by_language"][r["target_language"]][audit.OVERALL] = _intervals(r)
    return out


def run(args) -> int:
    loaded = load_source(args.audit, "judge_audit", args.config, args.split, args.form)
    if not loaded.report["rows_used"]:
        raise SourceError(f"no usable rows ({loaded.report['rows_excluded']:,} excluded; "
                          "see `python -m judgescope validate`)", dataset=loaded.spec.name)
    if args.resamples < 1:
        raise SourceError("--resamples must be at least 1")
    store = open_store({"audit": loaded})
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    _write(out / "SUMMARY.json", summary(store.run))
    by_language(store.run).to_csv(out / "BY_LANGUAGE.csv", index=False)
    _write(out / "BOOTSTRAP.json", bootstrap(store.run, args.resamples, args.seed))
    print(f"wrote SUMMARY.json, BY_LANGUAGE.csv, BOOTSTRAP.json to {out} "
          f"({loaded.report['rows_used']:,} rows of {loaded.spec.name})")
    return print_ledger(loaded)


def _write(path: Path, data: dict) -> None:
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False, allow_nan=False) + "\n",
                    encoding="utf-8")
