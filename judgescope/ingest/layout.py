"""Where a dataset's data files are: one file, or a folder laid out like a Hub dataset repository
(configs, splits and files resolved by the `datasets` library's data-files logic, the rules the
Hub and `load_dataset` apply), every file confined to its folder."""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

import yaml  # the front matter; `configs:` itself is read by datasets (MetadataConfigs)

from judgescope.ingest.manifest import FORMATS, SourceError


@dataclass
class ResolvedFiles:
    root: Path
    files: list[Path]
    format: str
    lfs_sha256: dict[str, str] = field(default_factory=dict)


def file_format(path: Path) -> str:
    """The reader of a file: an evaluation tool's format when its content says so
    (ingest/importers: an Inspect log, a promptfoo results file, …), else its extension's."""
    from judgescope.ingest import importers

    fmt = importers.detect(path) or FORMATS.get(path.suffix.lower())
    if not fmt:
        raise SourceError(f"unsupported file type {path.suffix!r} (use Parquet, JSONL or CSV)",
                          file=path.name)
    return fmt


def resolve_local(target: Path, config: str | None, split: str | None,
                  dataset: str | None = None, blobs: Path | None = None) -> ResolvedFiles:
    """A single file, or a folder laid out like a Hub dataset repository (configs, splits and
    files as `datasets` resolves them). Every data file must resolve (symlinks followed) inside
    the folder, or, for a Hub cache snapshot, `blobs`."""
    if not target.exists():
        raise SourceError("no such file or folder", dataset=dataset, file=target.name)
    if target.is_file():
        return ResolvedFiles(target.parent, [target], file_format(target))
    files = hub_layout_files(target, config, split, dataset, blobs)
    if not files:
        raise SourceError("no data files in this split", dataset=dataset, file=target.name)
    formats = {file_format(f) for f in files}
    if len(formats) > 1:
        raise SourceError(f"mixed file types {sorted(formats)} in one split", dataset=dataset,
                          file=target.name)
    return ResolvedFiles(target, files, formats.pop())


def check_pattern(pattern: str, dataset: str | None = None) -> None:
    """A README `data_files` pattern names files inside its folder: no URL (any scheme, or an
    fsspec chain), no absolute path, no `..`."""
    if "://" in pattern or "::" in pattern or re.match(r"^[A-Za-z][A-Za-z0-9+.\-]*:(?![\\/])", pattern):
        raise SourceError(f"README.md data_files pattern {pattern[:200]!r} is a URL, not a file of "
                          "the dataset folder: refused", dataset=dataset, file="README.md")
    parts = pattern.replace("\\", "/").split("/")
    if pattern.startswith(("/", "\\", "~")) or Path(pattern).is_absolute() or ".." in parts \
            or re.match(r"^[A-Za-z]:", pattern):
        raise SourceError(f"README.md data_files pattern {pattern!r} leaves the dataset folder "
                          "(absolute or '..'): refused", dataset=dataset, file="README.md")


def confine(path: Path, folder: Path, blobs: Path | None, dataset: str | None = None) -> Path:
    """The real file behind `path`, refused when it lies outside `folder` (or the HF blobs)."""
    real = path.resolve()
    roots = [folder.resolve()] + ([blobs.resolve()] if blobs else [])
    if not any(real.is_relative_to(r) for r in roots):
        rel = path.relative_to(folder).as_posix() if path.is_relative_to(folder) else path.name
        raise SourceError("data file resolves outside the dataset folder (a symlink or a "
                          "pattern that leaves it): refused", dataset=dataset, file=rel)
    return real


def hub_layout_files(folder: Path, config: str | None, split: str | None,
                     dataset: str | None = None, blobs: Path | None = None) -> list[Path]:
    """The confined data files of one config/split, chosen as the Hub and `load_dataset` do;
    a folder resolved before, unchanged, is read from its memo (no `datasets` import)."""
    memo = _memo_file(folder, config, split, blobs)
    files = _remembered(memo, folder)
    if files is None:
        files = _resolved(folder, config, split, dataset, blobs)
        _remember(memo, folder, files)
    for f in files:  # a remembered file is confined again: the memo is never trusted for that
        confine(f, folder, blobs, dataset)
    return files


# Resolving a folder imports `datasets` (about 1 s, the longest import of a start), so a
# resolution is kept in the cache under a digest of everything it reads: the README's bytes,
# the name of every file and folder under the folder (a symlink with its target), the config,
# split and blobs asked for, this module's code and the `datasets` version. A folder with more
# entries than MEMO_ENTRIES is resolved every time.
MEMO_ENTRIES = 20_000


def _memo_file(folder: Path, config: str | None, split: str | None, blobs: Path | None) -> Path | None:
    from judgescope.duck.cache import cache_root

    digest = hashlib.sha256(json.dumps([str(folder), str(folder.absolute()), str(folder.resolve()), config,
                                        split, str(blobs) if blobs else None, metadata.version("datasets")]).encode())
    digest.update(Path(__file__).read_bytes())
    card = folder / "README.md"
    digest.update(card.read_bytes() if card.is_file() else b"no README")
    entries = 0
    for top, dirs, names in os.walk(folder, followlinks=True):
        dirs.sort()
        for name in sorted(names) + [d + os.sep for d in dirs]:
            path = os.path.join(top, name.rstrip(os.sep))
            target = os.readlink(path) if os.path.islink(path) else ""
            digest.update(f"{os.path.relpath(path, folder)}{name[-1:] == os.sep}\0{target}\n".encode())
            entries += 1
            if entries > MEMO_ENTRIES:
                return None
    return cache_root() / "layouts" / f"{digest.hexdigest()[:32]}.json"


def _remembered(memo: Path | None, folder: Path) -> list[Path] | None:
    """The files a memo names, each kept relative to the folder (a cache holds no absolute
    path: tests/test_cache_portable.py)."""
    try:
        return [folder / f for f in json.loads(memo.read_text(encoding="utf-8"))] if memo else None
    except (OSError, ValueError, TypeError):
        return None


def _remember(memo: Path | None, folder: Path, files: list[Path]) -> None:
    if memo is None:
        return
    try:  # written beside and renamed, so a reader never sees half of it; a read-only cache is fine
        memo.parent.mkdir(parents=True, exist_ok=True)
        part = memo.with_suffix(f".{os.getpid()}.part")
        part.write_text(json.dumps([os.path.relpath(f, folder) for f in files]), encoding="utf-8")
        part.replace(memo)
    except OSError:
        pass


def _resolved(folder: Path, config: str | None, split: str | None, dataset: str | None,
              blobs: Path | None) -> list[Path]:
    configs = split_files(folder, dataset, blobs)
    cards = read_card_configs(folder, dataset)
    # As datasets' MetadataConfigs.get_default_config_name: `default: true`, else one named default.
    default = next((c for c, v in cards.items() if v.get("default")),
                   "default" if "default" in cards else None)
    chosen = _choose(configs, config, "config", folder, dataset, default=default)
    split_name = _choose(configs[chosen], split, f"split of config {chosen!r}", folder, dataset)
    return configs[chosen][split_name]


def split_files(folder: Path, dataset: str | None = None,
                blobs: Path | None = None) -> dict[str, dict[str, list[Path]]]:
    """config → split → data files, resolved by `datasets`' own data-files logic (README
    `configs:` patterns, else its default split patterns: `data/train-*`, `train/`, …), each
    pattern checked and each file confined before anything reads it."""
    from datasets.data_files import (DataFilesDict, EmptyDatasetError, get_data_patterns,
                                     sanitize_patterns)

    cards = read_card_configs(folder, dataset)
    out = {}
    try:
        for name, card in (cards or {"default": {}}).items():
            base = folder / _data_dir(card, dataset)
            patterns = (sanitize_patterns(card["data_files"]) if card.get("data_files")
                        else get_data_patterns(str(base)))
            for pat in (p for pats in patterns.values() for p in pats):
                check_pattern(pat, dataset)
            resolved = DataFilesDict.from_patterns(patterns, base_path=str(base))
            for f in (Path(f) for files in resolved.values() for f in files):
                confine(f, folder, blobs, dataset)
            out[name] = {str(sp): _supported([Path(f) for f in files])
                         for sp, files in resolved.items()}
    except (EmptyDatasetError, FileNotFoundError) as err:
        raise SourceError(f"no data files found: {str(err).splitlines()[0]}", dataset=dataset,
                          file=folder.name) from err
    return out


def _data_dir(card: dict, dataset: str | None) -> str:
    data_dir = str(card.get("data_dir") or ".")
    check_pattern(data_dir, dataset)
    return data_dir


def _supported(files: list[Path]) -> list[Path]:
    """The split's files JudgeScope reads (Parquet, JSONL, CSV); `datasets` would also pick
    one format per split. The others are named if nothing else is left."""
    kept = sorted(f for f in files if f.suffix.lower() in FORMATS)
    if files and not kept:
        raise SourceError(f"unsupported file types {sorted({f.suffix for f in files})} "
                          "(use Parquet, JSONL or CSV)", file=files[0].name)
    return kept


def _choose(options: dict, wanted: str | None, what: str, folder: Path, dataset: str | None,
            default: str | None = None) -> str:
    if wanted is not None:
        if wanted not in options:
            raise SourceError(f"{what} {wanted!r} not found; available: {sorted(options)}",
                              dataset=dataset, file="README.md")
        return wanted
    if len(options) == 1:
        return next(iter(options))
    if default:
        return default
    flag = what.split()[0]  # "config" or "split"
    plural = what.replace(flag, flag + "s", 1)
    raise SourceError(f"several {plural}: {', '.join(sorted(options))}; choose one with --{flag} "
                      f"(CLI) or {flag} = \"…\" (manifest)", dataset=dataset, file=folder.name)


def read_card_configs(folder: Path, dataset: str | None = None) -> dict[str, dict]:
    card = folder / "README.md"
    if not card.exists():
        return {}
    text = card.read_text(encoding="utf-8", errors="replace")
    if not text.startswith("---"):
        return {}
    try:
        front = yaml.safe_load(text.split("---", 2)[1]) or {}
    except (yaml.YAMLError, IndexError) as err:
        raise SourceError(f"README.md YAML front matter is broken: {err}", dataset=dataset,
                          file="README.md") from err
    if not isinstance(front, dict):
        raise SourceError("README.md front matter is not a mapping", dataset=dataset, file="README.md")
    configs = front.get("configs") or []
    if not isinstance(configs, list) or not all(isinstance(c, dict) for c in configs):
        raise SourceError("README.md `configs:` must be a list of mappings", dataset=dataset,
                          file="README.md")
    from datasets.utils.metadata import MetadataConfigs

    try:  # the Hub's own reading of `configs:` (config_name required, data_files checked)
        parsed = MetadataConfigs.from_dataset_card_data({"configs": configs})
    except (ValueError, TypeError) as err:
        raise SourceError(f"README.md `configs:` {str(err).splitlines()[0][:300]}",
                          dataset=dataset, file="README.md") from err
    return {str(name): dict(card) for name, card in parsed.items()}
