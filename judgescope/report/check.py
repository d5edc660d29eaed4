"""Does a report still match its data? Read the manifest a report embeds, check every pinned file,
recompute every number with the same functions, and name what changed."""

from __future__ import annotations

from dataclasses import dataclass, field

from judgescope.report import assemble
from judgescope.report.ledger import same
from judgescope.sources.manifest import SourceError


@dataclass
class Result:
    unusable: list[str] = field(default_factory=list)  # exit 2: pins missing or broken
    changed: list[str] = field(default_factory=list)  # exit 1: numbers that differ
    notes: list[str] = field(default_factory=list)
    checked: int = 0


def check(catalog, manifest: dict) -> Result:
    out = Result()
    name = manifest.get("collection")
    if name not in catalog.manifest.collections:
        out.unusable.append(f"collection {name!r} is not in the manifest {catalog.manifest.path.name}")
        return out
    _check_files(catalog, name, manifest, out)
    if out.unusable:
        return out
    fresh = assemble.collect(catalog, name, generated_at=manifest.get("generated_at", ""),
                          seed=int(manifest["seed"]), resamples=int(manifest["resamples"]),
                          app=manifest.get("app"))
    now = fresh.ledger.numbers
    for entry in manifest.get("numbers", []):
        out.checked += 1
        id = entry["id"]
        if id not in now:
            out.changed.append(f"{id}: shown {entry['shown']}, no longer computed from the data")
        elif not same(entry["value"], now[id]["value"]):
            out.changed.append(f"{id}: shown {entry['shown']}, now {now[id]['shown']} "
                               f"({entry['value']!r} → {now[id]['value']!r}; {now[id]['function']})")
    listed = {e["id"] for e in manifest.get("numbers", [])}
    for id, entry in now.items():
        if id not in listed:
            out.changed.append(f"{id}: not in the report, now {entry['shown']}")
    return out


def _check_files(catalog, name: str, manifest: dict, out: Result) -> None:
    """Each dataset the report pinned: still defined, loadable (its files match the sha256 its
    manifest records: checksums file or the Hub's LFS), and each pinned file present."""
    for pinned in manifest.get("datasets", []):
        ds = pinned["name"]
        if ds not in catalog.manifest.datasets:
            out.unusable.append(f"dataset {ds} is no longer defined in {catalog.manifest.path.name}")
            continue
        if not pinned.get("ok", True):
            continue
        loaded = catalog.dataset(ds)
        if not loaded.ok:
            out.unusable.append(loaded.error)
            continue
        spec = loaded.spec
        if pinned.get("revision") != spec.revision:
            out.notes.append(f"dataset {ds}: revision {pinned.get('revision')} in the report, "
                             f"{spec.revision} now")
        files = {f["file"]: f for f in loaded.report["files"]}
        for f in pinned.get("files", []):
            now = files.get(f["file"])
            if now is None:
                out.unusable.append(f"dataset {ds}: pinned file {f['file']} is missing")
            elif now["sha256"] != f["sha256"]:
                out.notes.append(f"dataset {ds}: file {f['file']} changed since the report "
                                 f"(sha256 {f['sha256'][:12]}… → {now['sha256'][:12]}…)")


def guard(result: Result) -> None:
    """Raise the unusable input as a SourceError (the CLI's exit 2)."""
    if result.unusable:
        raise SourceError("; ".join(result.unusable))
