"""The manifest `judgescope open` / `init` write from what infer.py found and infer_groups.py
grouped: a commented TOML text, so the next run is pinned (file sha256 in a checksums file beside
it) and editable, and the lines printed of what was inferred. No streamlit."""

from __future__ import annotations

import json
import os
from pathlib import Path

from judgescope.sources.infer import Found, discover
from judgescope.sources.infer_groups import Group, group


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
