"""Where a dataset's data files are: one file, or a folder laid out like a Hub dataset repository
(README.md `configs:` → `data_files` patterns), every file confined to its folder."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from judgescope.sources import FORMATS, SourceError, _as_list


@dataclass
class ResolvedFiles:
    root: Path
    files: list[Path]
    format: str
    lfs_sha256: dict[str, str] = field(default_factory=dict)


def file_format(path: Path) -> str:
    fmt = FORMATS.get(path.suffix.lower())
    if not fmt:
        raise SourceError(f"unsupported file type {path.suffix!r} (use Parquet, JSONL or CSV)",
                          file=path.name)
    return fmt


def resolve_local(target: Path, config: str | None, split: str | None,
                  dataset: str | None = None, blobs: Path | None = None) -> ResolvedFiles:
    """A single file, or a folder laid out like a Hub dataset repository. Every data file must
    resolve (symlinks followed) inside the folder, or, for a Hub cache snapshot, `blobs`."""
    if not target.exists():
        raise SourceError("no such file or folder", dataset=dataset, file=target.name)
    if target.is_file():
        return ResolvedFiles(target.parent, [target], file_format(target))
    patterns = hub_layout_files(target, config, split, dataset)
    for pat in patterns:
        check_pattern(pat, dataset)
    files = sorted({p for pat in patterns for p in target.glob(pat) if p.is_file()})
    for f in files:
        confine(f, target, blobs, dataset)
    if not files:
        raise SourceError(f"no data files match {patterns}", dataset=dataset, file=target.name)
    formats = {file_format(f) for f in files}
    if len(formats) > 1:
        raise SourceError(f"mixed file types {sorted(formats)} in one split", dataset=dataset,
                          file=target.name)
    return ResolvedFiles(target, files, formats.pop())


def check_pattern(pattern: str, dataset: str | None = None) -> None:
    """A README `data_files` pattern names files inside its folder: no absolute path, no `..`."""
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
                     dataset: str | None = None) -> list[str]:
    """Glob patterns for one config/split, read from README.md's YAML `configs:`."""
    configs = read_card_configs(folder, dataset)
    if not configs:
        found = [p.relative_to(folder).as_posix() for p in folder.rglob("*")
                 if p.is_file() and p.suffix.lower() in FORMATS]
        if not found:
            raise SourceError("folder has no README configs and no data files", dataset=dataset,
                              file=folder.name)
        return found
    chosen = _choose(configs, config, "config", folder, dataset,
                     default=next((c for c, v in configs.items() if v.get("default")), None))
    splits = _split_files(configs[chosen].get("data_files"))
    split_name = _choose(splits, split, f"split of config {chosen!r}", folder, dataset)
    return splits[split_name]


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
    raise SourceError(f"several {what}s {sorted(options)}: choose one (--config/--split or "
                      "config/split in the manifest)", dataset=dataset, file=folder.name)


def _split_files(data_files) -> dict[str, list[str]]:
    if data_files is None:
        return {"train": ["**/*"]}
    if isinstance(data_files, (str, list)) and not (isinstance(data_files, list) and data_files
                                                    and isinstance(data_files[0], dict)):
        return {"train": [str(p) for p in _as_list(data_files)]}
    if isinstance(data_files, dict):
        return {str(k): [str(p) for p in _as_list(v)] for k, v in data_files.items()}
    return {str(d.get("split", "train")): [str(p) for p in _as_list(d["path"])] for d in data_files}


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
    if not isinstance(configs, list):
        raise SourceError("README.md `configs:` must be a list", dataset=dataset, file="README.md")
    return {str(c.get("config_name", "default")): c for c in configs if isinstance(c, dict)}
