"""Does a report still match its data? Read the manifest a report embeds, check every pinned file,
recompute every number with the same functions, and name what changed."""

from __future__ import annotations

from dataclasses import dataclass, field

from judgescope.report import assemble, staleness_section
from judgescope.report.ledger import same
from judgescope.ingest.manifest import SourceError


@dataclass
class Result:
    unusable: list[str] = field(default_factory=list)  # exit 2: pins missing or broken
    changed: list[str] = field(default_factory=list)  # exit 1: numbers that differ
    notes: list[str] = field(default_factory=list)
    checked: int = 0
    fresh: object = None  # the report its data gives now (assemble.Report), rendered by check-report
    data_changed: bool = False  # a pinned file's sha256 or a dataset's revision is not the report's


MAX_ENTRIES = 1_000_000
_SCALAR = (type(None), bool, int, float, str)


def validate_shape(manifest, name: str, max_seed: int, max_resamples: int) -> None:
    """Refuse (SourceError, the CLI's exit 2) a manifest that is not one report-html writes, before
    any of it is used: its shape, and seed and resamples within the bounds every command takes
    (the CLI's, passed in: an untrusted file must not drive a 10**12-resample bootstrap)."""
    def need(ok: bool, what: str) -> None:
        if not ok:
            raise SourceError(f"{name}: its manifest is not a report manifest: {what}")

    need(isinstance(manifest, dict), f"it is a JSON {type(manifest).__name__}, not an object")
    need(manifest.get("judgescope_report") == assemble.MANIFEST_VERSION,
         f"judgescope_report is not {assemble.MANIFEST_VERSION}")
    need(isinstance(manifest.get("collection"), str), "no collection name")
    for key, high in (("seed", max_seed), ("resamples", max_resamples)):
        value = manifest.get(key)
        low = 0 if key == "seed" else 1
        need(type(value) is int and low <= value <= high, f"{key} is not a whole number from {low} to {high:,}")
    need(isinstance(manifest.get("generated_at", ""), str), "generated_at is not text")
    app = manifest.get("app", {})
    need(isinstance(app, dict) and all(isinstance(app.get(k), (str, type(None))) for k in ("version", "commit")),
         "app is not {version, commit}")
    numbers = manifest.get("numbers")
    need(isinstance(numbers, list) and len(numbers) <= MAX_ENTRIES, "numbers is not a list")
    for i, e in enumerate(numbers):
        need(isinstance(e, dict) and isinstance(e.get("id"), str) and isinstance(e.get("shown"), str)
             and isinstance(e.get("value"), _SCALAR) and type(e.get("elements", 0)) is int,
             f"numbers[{i}] is not an entry with id, value and shown")
    datasets = manifest.get("datasets", [])
    need(isinstance(datasets, list), "datasets is not a list")
    for i, d in enumerate(datasets):
        need(isinstance(d, dict) and isinstance(d.get("name"), str) and isinstance(d.get("files", []), list)
             and all(isinstance(f, dict) and isinstance(f.get("file"), str) and isinstance(f.get("sha256"), str)
                     for f in d.get("files", [])), f"datasets[{i}] is not a dataset with name and files")
    need(isinstance(manifest.get("not_measured", []), list)
         and all(isinstance(m, str) for m in manifest.get("not_measured", [])), "not_measured is not a list of text")


def check(catalog, manifest: dict) -> Result:
    out = Result()
    name = manifest.get("collection")
    if name not in catalog.manifest.collections:
        out.unusable.append(f"collection {name!r} is not in the manifest {catalog.manifest.path.name} (a report "
                            "made from a data file is checked with --source FILE)")
        return out
    _check_files(catalog, name, manifest, out)
    if out.unusable:
        return out
    fresh = assemble.collect(catalog, name, generated_at=manifest.get("generated_at", ""),
                          seed=int(manifest["seed"]), resamples=int(manifest["resamples"]),
                          app=manifest.get("app"))
    out.fresh = fresh
    now = fresh.ledger.numbers
    out.notes += staleness_section.notes(fresh.sections.get("staleness"))
    for entry in manifest.get("numbers", []):
        out.checked += 1
        id = entry["id"]
        if id not in now:
            out.changed.append(f"{id}: shown {entry['shown']}, no longer computed from the data")
        elif not same(entry["value"], now[id]["value"]) or entry["shown"] != now[id]["shown"]:
            out.changed.append(f"{id}: shown {entry['shown']}, now {now[id]['shown']} "
                               f"({entry['value']!r} → {now[id]['value']!r}; {now[id]['function']})")
    said, now_said = manifest.get("not_measured", []), fresh.not_measured
    for text in [t for t in said if t not in now_said] + [t for t in now_said if t not in said]:
        where = "in the report, no longer true" if text in said else "true now, not in the report"
        out.changed.append(f"not measured: “{text[:160]}” ({where})")
    listed = {e["id"] for e in manifest.get("numbers", [])}
    for id, entry in now.items():
        if id not in listed:
            out.changed.append(f"{id}: not in the report, now {entry['shown']}")
    other = other_code(manifest) if out.changed else None  # asks git for the running commit: once
    if other:
        out.notes.append(
            f"{other}: a number this code computes differently is listed "
            "as changed too (a seeded bootstrap's interval moves by Monte Carlo error where its random "
            "stream changed, as it did for groups drawn row by row in issue 45); a report made again "
            "with this version tells the data's changes from the code's")
    return out


def other_code(manifest: dict) -> str | None:
    """"The report was made by judgescope X … and is checked by Y …" when the version or commit
    it records is not the running one's; None when they are the same."""
    made, running = manifest.get("app") or {}, assemble.app_version()
    if (made.get("version"), made.get("commit")) == (running["version"], running["commit"]):
        return None
    return (f"the report was made by judgescope {made.get('version')} (commit "
            f"{made.get('commit') or 'not recorded'}) and is checked by {running['version']} (commit "
            f"{running['commit'] or 'not recorded'})")


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
            out.data_changed = True
            out.notes.append(f"dataset {ds}: revision {pinned.get('revision')} in the report, "
                             f"{spec.revision} now")
        files = {f["file"]: f for f in loaded.report["files"]}
        for f in pinned.get("files", []):
            now = files.get(f["file"])
            if now is None:
                out.unusable.append(f"dataset {ds}: pinned file {f['file']} is missing")
            elif now["sha256"] != f["sha256"]:
                out.data_changed = True
                out.notes.append(f"dataset {ds}: file {f['file']} changed since the report "
                                 f"(sha256 {f['sha256'][:12]}… → {now['sha256'][:12]}…)")


def guard(result: Result) -> None:
    """Raise the unusable input as a SourceError (the CLI's exit 2)."""
    if result.unusable:
        raise SourceError("; ".join(result.unusable))
