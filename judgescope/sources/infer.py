"""Datasets found in the files, folders and pinned Hub ids `judgescope open` / `init` name: each
dataset's kind detected from its columns (kinds.py), its title from the folder's README or its file
name. infer_groups.py groups them into collections, infer_manifest.py writes the manifest. No
streamlit."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from judgescope.sources import readme
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
