"""A manifest inferred from data files, folders and pinned Hub ids (`judgescope open` / `init`):
each dataset's kind detected from its columns (kinds.py), datasets grouped into collections by
role, the audit–snapshot join key inferred (join_key.py), titles from the file names. The text
written is a commented manifest, so the next run is pinned (file sha256 in a checksums file
beside it) and editable. No streamlit."""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from judgescope.sources import readme
from judgescope.ingest.join_key import INFERRED_KEY, infer_key
from judgescope.ingest.kinds import detect_resolved, file_columns
from judgescope.ingest.layout import read_card_configs, split_files
from judgescope.ingest.manifest import (FORMATS, NAME_RE, PIN_HINT, REVISION_RE, DatasetSpec,
                                         SourceError, check_repo_id, readable, unreadable)

HUB_ID_RE = re.compile(r"^(?:hub:)?([A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*)(?:@(\S+))?$")
# Roles that lead a collection, and the role each may take as its companion.
PARTNERS = {"judge_audit": "source_snapshot", "calibration_items": "calibration_judgements",
            "pairwise_ranking": "human_verification"}


@dataclass
class Found:
    """One dataset found in the arguments, with its detected kind (or why it has none)."""
    spec: DatasetSpec
    where: Path | None  # the file or folder (None for a Hub dataset)
    columns: list[str] = field(default_factory=list)
    error: str | None = None
    tool_file: bool = False  # a file an evaluation tool wrote: partners only from the same file
    description: str = ""  # what the folder's README says of it

    @property
    def kind(self) -> str:
        return self.spec.kind


@dataclass
class Group:
    name: str
    title: str
    members: list[Found]
    join_key: list[str] | None = None
    description: str = ""


def slug(text: str) -> str:
    """A safe dataset/collection name (manifest.NAME_RE) from a file name."""
    s = re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_.-")[:64] or "dataset"
    return s if NAME_RE.fullmatch(s) else f"d_{s}"[:64]


def discover(arguments: list[str]) -> list[Found]:
    """Every dataset the arguments name: a data file, a folder (a Hub-layout folder gives one
    dataset per config and split; any other folder, each data file in it) or a pinned Hub id
    (owner/name@<40-hex commit>). An argument that is none of these raises SourceError."""
    found: list[Found] = []
    for arg in arguments:
        path = Path(arg).expanduser()
        if path.is_file():
            found += _files(path.resolve())
        elif path.is_dir():
            try:
                found += _folder(path.resolve())
            except OSError as err:  # a folder that cannot be listed is unusable, named
                raise unreadable(err, file=path.name) from err
        elif HUB_ID_RE.match(arg) and not path.exists():
            found += _hub(arg)
        else:
            raise SourceError(f"{arg!r} is neither an existing file or folder nor a pinned Hub "
                              "dataset id (owner/name@<40-hex commit>)")
    names: set[str] = set()
    for f in found:  # unique names, in order
        base, n = f.spec.name, 2
        while f.spec.name in names:
            f.spec.name, n = f"{base[:60]}_{n}", n + 1
        names.add(f.spec.name)
    for f in found:
        _detect(f)
    return found


def _file(path: Path, card: readme.Readme | None = None) -> Found:
    """A data file, titled and described by its folder's README where it speaks of the file."""
    card = readme.read(path.parent) if card is None else card
    title = card.titles.get(path.name) or readme.recase(readable(path.stem), card.text)
    return Found(DatasetSpec(name=slug(path.stem), kind="", title=title, base=path.parent, path=path.name),
                 path, description=card.descriptions.get(path.name, ""))


def _files(path: Path) -> list[Found]:
    """One dataset per file; a file another tool wrote, one per kind it gives (an Inspect log
    with human score edits: its judgements and its calibration items), named by role."""
    from judgescope.ingest import importers
    from judgescope.schema import SCHEMAS

    fmt = importers.detect(path)
    try:
        kinds = importers.load(path, fmt).kinds() if fmt else []
    except SourceError:
        kinds = []  # _detect names the problem
    if len(kinds) < 2:
        found = _file(path)
        found.tool_file = bool(fmt)
        return [found]
    out = []
    for kind in sorted(kinds, key=lambda k: k not in PARTNERS):  # leads first: group() pairs them
        f = _file(path)
        f.spec.name = slug(f"{path.stem}_{SCHEMAS[kind].role}")
        f.spec.title = readable(f"{path.stem} {SCHEMAS[kind].role}")
        f.spec.kind = kind
        f.tool_file = True
        out.append(f)
    return out


def is_hub_layout(folder: Path) -> bool:
    """A folder laid out like a Hub dataset repository: a README with `configs:`, or data files
    in subfolders (data/, train/, …). Any other folder is a set of loose files."""
    try:
        if read_card_configs(folder):
            return True
    except SourceError:
        return True  # a broken card: the layout resolution names the problem
    return any(p.is_dir() and not p.name.startswith(".") and
               any(f.suffix.lower() in FORMATS for f in p.rglob("*") if f.is_file())
               for p in folder.iterdir())


def _folder(folder: Path) -> list[Found]:
    if not is_hub_layout(folder):
        files = sorted(p for p in folder.iterdir()
                       if p.is_file() and p.suffix.lower() in FORMATS and not p.name.startswith("."))
        if not files:
            raise SourceError("no Parquet, JSONL or CSV files in this folder", file=folder.name)
        return [f for p in files for f in _files(p)]
    return _layout(folder, folder.name, lambda config, split: DatasetSpec(
        name="", kind="", title="", base=folder.parent, path=folder.name, config=config,
        split=split), folder)


def _layout(folder: Path, label: str, make, where: Path | None, blobs: Path | None = None
            ) -> list[Found]:
    """One dataset per (config, split) of a Hub-layout folder."""
    out = []
    configs = split_files(folder, label, blobs)
    card = readme.read(folder)
    for config, splits in configs.items():
        for split, files in splits.items():
            if not files:
                continue
            spec = make(config, split)
            parts = [label] + ([config] if len(configs) > 1 or config != "default" else []) \
                + ([split] if len(splits) > 1 else [])
            spec.name = slug("_".join(parts))
            shown = [card.pretty_name or label] + ([config] if len(configs) > 1 else []) \
                + ([split] if len(splits) > 1 else [])
            spec.title = readme.recase(readable(" · ".join(shown).replace(".", " ")), card.text)
            out.append(Found(spec, where))
    return out


def _hub(arg: str) -> list[Found]:
    repo, revision = HUB_ID_RE.match(arg).groups()
    check_repo_id(repo)
    if not revision or not REVISION_RE.fullmatch(revision):
        raise SourceError(f"Hub dataset {repo}: give it pinned, as {repo}@<commit>; {PIN_HINT}")
    from judgescope.remote import hub

    folder, _ = hub.fetch(repo, revision, dataset=slug(repo.split("/")[1]))
    return _layout(folder, repo.split("/")[1], lambda config, split: DatasetSpec(
        name="", kind="", title="", base=Path.cwd(), hub=repo, revision=revision, config=config,
        split=split), None, blobs=folder.parent.parent / "blobs")


def _detect(found: Found) -> None:
    from judgescope.sources.catalog import resolve

    try:
        resolved = resolve(found.spec)
        found.columns = file_columns(resolved, found.spec.kind or None)
        found.spec.kind = found.spec.kind or detect_resolved(resolved, found.spec.name)
        found.spec.kind_detected = True
    except SourceError as err:
        found.error = str(err)
    except OSError as err:  # one unreadable file is named; the others still open
        found.error = str(unreadable(err, file=found.where.name if found.where else None))


def _prefix(a: str, b: str) -> int:
    return len(os.path.commonprefix([a, b]))


def group(found: list[Found]) -> list[Group]:
    """Collections by role: an audit with the snapshot that joins it (the key columns both have,
    the closest file name first), calibration items with their judgements, a ranking with its
    human verification; every other dataset (ratings, an unusable file, a lone snapshot) alone."""
    taken: set[int] = set()
    groups: list[Group] = []
    for i, lead in enumerate(found):
        if i in taken:
            continue
        taken.add(i)
        members, key = [lead], None
        partner_kind = PARTNERS.get(lead.kind) if not lead.error else None
        options = [j for j, f in enumerate(found) if j not in taken and not f.error
                   and partner_kind and f.kind == partner_kind and _may_pair(lead, f)]
        if lead.kind == "judge_audit":
            options = [j for j in options if _key(lead, found[j])]
        if options:
            # A partner from the same file first (a tool's file gives both), then the closest name.
            j = max(options, key=lambda j: (found[j].where == lead.where,
                                            _prefix(lead.spec.name, found[j].spec.name), -j))
            taken.add(j)
            members.append(found[j])
            key = _key(lead, found[j]) if lead.kind == "judge_audit" else None
        groups.append(Group(lead.spec.name, lead.spec.title, members, key, lead.description))
    # A partner met before its lead (a snapshot listed first) leads a group of its own: fold it
    # into the lead's group when that one has no partner yet.
    return _fold(groups)


def _fold(groups: list[Group]) -> list[Group]:
    out: list[Group] = []
    for g in groups:
        lone = len(g.members) == 1 and not g.members[0].error
        host = next((h for h in out if lone and len(h.members) == 1 and not h.members[0].error
                     and PARTNERS.get(g.members[0].kind) == h.members[0].kind
                     and _may_pair(g.members[0], h.members[0])
                     and (g.members[0].kind != "judge_audit" or _key(g.members[0], h.members[0]))),
                    None)
        if host:  # g leads (an audit), host is its partner (a snapshot) met earlier
            host.members.insert(0, g.members[0])
            host.name, host.title, host.description = g.name, g.title, g.description
            if g.members[0].kind == "judge_audit":
                host.join_key = _key(g.members[0], host.members[1])
        else:
            out.append(g)
    return out


def _may_pair(a: Found, b: Found) -> bool:
    """Datasets from a file an evaluation tool wrote pair only with each other: another file's
    snapshot is not the texts this tool's judge saw."""
    return (not a.tool_file and not b.tool_file) or a.where == b.where


def _key(audit: Found, snapshot: Found) -> list[str]:
    def missing(f):
        return [c for c in INFERRED_KEY if c not in f.columns]
    return infer_key(missing(audit), missing(snapshot))


def _toml(value) -> str:
    """A TOML basic string or array of them (JSON's escapes are TOML's)."""
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return json.dumps(str(value), ensure_ascii=False).replace("\x7f", "\\u007f")


def manifest_text(found: list[Found], groups: list[Group], manifest: Path,
                  checksums: str | None = None) -> str:
    """The commented manifest for `groups`, to be written at `manifest` (its paths relative to
    the manifest's folder, or to a `root` holding every local file)."""
    folder = manifest.parent.resolve()
    locals_ = [f.where for f in found if f.where is not None]
    root = folder
    if locals_ and not all(p.is_relative_to(folder) for p in locals_):
        root = Path(os.path.commonpath([str(p.parent) for p in locals_]))
    lines = ["# JudgeScope sources manifest, inferred by `judgescope open`/`init` from the files",
             "# named: each dataset's kind detected from its columns, datasets grouped into",
             "# collections by role, titles from the README or the file names. Edit freely (titles, grouping,",
             "# join keys); serve it with `judgescope open " + manifest.name + "` or",
             "# JUDGESCOPE_SOURCES=" + manifest.name + " make run.", ""]
    if root != folder:
        lines += ["# The files live outside this manifest's folder: paths are relative to root.",
                  f"root = {_toml(str(root))}", ""]
    if checksums:
        lines += ["[integrity]",
                  "# sha256 and size of every local file as it was when inferred: a changed file",
                  "# is named instead of read.",
                  f"checksums = {_toml([checksums])}", ""]
    for g in groups:
        lines += ["[[collection]]", f"name = {_toml(g.name)}", f"title = {_toml(g.title)}",
                  f"datasets = {_toml([m.spec.name for m in g.members])}"]
        if g.description:
            lines.append(f"description = {_toml(g.description)}  # from the folder's README")
        if g.join_key:
            lines.append(f"join_key = {_toml(g.join_key)}  # inferred: the key columns both have")
        lines.append("")
    for f in found:
        s = f.spec
        if f.error:
            lines.append(f"# could not be used as found: {_comment(f.error)}")
        lines += ["[[dataset]]", f"name = {_toml(s.name)}"]
        if s.kind:
            lines.append(f"kind = {_toml(s.kind)}  # detected from its columns")
        lines.append(f"title = {_toml(s.title)}")
        if s.hub:
            lines += [f"hub = {_toml(s.hub)}", f"revision = {_toml(s.revision)}"]
        else:
            lines.append(f"path = {_toml(f.where.relative_to(root).as_posix())}")
        for key in ("config", "split"):
            if getattr(s, key):
                lines.append(f"{key} = {_toml(getattr(s, key))}")
        lines.append("")
    return "\n".join(lines)


def _comment(text: str) -> str:
    return " ".join(text.split())[:300]


def checksums_json(found: list[Found], checksums: Path) -> str:
    """sha256/size of every local data file, keyed by path relative to the checksums file's
    folder when inside it (else absolute), as catalog.expected_checksums reads them."""
    from judgescope.sources.catalog import file_sha256, resolve

    out = {}
    for f in found:
        if f.where is None or f.error:
            continue
        for path in resolve(f.spec).files:
            key = (path.relative_to(checksums.parent.resolve()).as_posix()
                   if path.is_relative_to(checksums.parent.resolve()) else str(path))
            out[key] = {"sha256": file_sha256(path), "size": path.stat().st_size}
    return json.dumps(out, indent=1, sort_keys=True) + "\n"


def describe(groups: list[Group]) -> list[str]:
    """What was inferred, one line per collection and dataset (printed by open/init)."""
    out = []
    for g in groups:
        out.append(f"collection {g.name}: {g.title}")
        for m in g.members:
            what = f"UNUSABLE ({_comment(m.error)})" if m.error else m.kind
            out.append(f"  {m.spec.name}: {what}")
        if g.join_key:
            out.append(f"  join key (inferred): {', '.join(g.join_key)}")
    return out


def write(arguments: list[str], manifest: Path, pin: bool = True) -> tuple[list[Found], list[Group]]:
    """Infer from `arguments` and write the manifest (and, with `pin`, its checksums file)."""
    found = discover(arguments)
    groups = group(found)
    checksums = manifest.with_name(manifest.stem + ".checksums.json") if pin else None
    manifest.parent.mkdir(parents=True, exist_ok=True)
    if checksums:
        checksums.write_text(checksums_json(found, checksums), encoding="utf-8")
    manifest.write_text(manifest_text(found, groups, manifest, checksums.name if checksums else None),
                        encoding="utf-8")
    return found, groups
