"""Check that a report shows what its data gives: each element against the manifest, each entry recomputed.

Exit 0 when every shown number, badge and verdict equals its manifest entry, every entry equals
its recomputed value and the whole document reads as the same code renders it from that data
(report/wording.py: a sentence, a badge's class or a script edited); 1 naming each element
edited since the report was written (its section and entry, shown vs recorded), each place that
reads otherwise, and each number that changed (a stale report); 2 when a pinned file is missing
or no longer matches its recorded sha256, or the file is no report."""

from __future__ import annotations

import argparse
import hashlib
from pathlib import Path

from judgescope.cli import EXIT_OK, EXIT_PROBLEMS, MAX_RESAMPLES, MAX_SEED
from judgescope.ingest.manifest import SourceError, load_manifest


MAX_BYTES = 64 * 1024 * 1024


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("report", metavar="FILE.html", help="a report written by report-html")
    p.add_argument("--source", metavar="FILE", help="the data file or folder the report was made from, when "
                   "report-html was given one instead of a collection of the manifest")
    p.add_argument("--sig", metavar="FILE.sha256", help="also check the file's bytes against the detached "
                   "digest `report-html --sign` wrote (any byte changed: exit 1)")


def run(args) -> int:
    from judgescope import wiring
    from judgescope.report import check, html, visible, wording
    path = Path(args.report)
    try:
        if path.stat().st_size > MAX_BYTES:
            raise SourceError(f"{path.name}: {path.stat().st_size:,} bytes is more than any report's "
                              f"{MAX_BYTES:,} (report-html cuts data text; its reports weigh under 3 MB)")
        text = path.read_text(encoding="utf-8")
        manifest = html.read_manifest(text)
    except (OSError, UnicodeDecodeError, ValueError) as err:
        raise SourceError(f"{path.name}: cannot read a report manifest ({err})") from err
    check.validate_shape(manifest, path.name, MAX_SEED, MAX_RESAMPLES)
    signed = _signature_holds(path, Path(args.sig)) if args.sig else True
    edited = visible.problems(text, manifest)
    if edited:
        print(f"{len(edited):,} element(s) of {path.name} do not show what its manifest records "
              "(edited after it was written):")
        for line in edited:
            print(f"  {line}")
    # A catalog of its own: the files are read as they are now, never as a cache saw them earlier.
    if args.source:
        from judgescope.cli.commands.report_html import catalog_for
        catalog, name = catalog_for(args.source)
        if name != manifest["collection"]:
            raise SourceError(f"--source {args.source} holds {name!r}, the report {manifest['collection']!r}")
    else:
        catalog = wiring.catalog(load_manifest())
    result = check.check(catalog, manifest)
    check.guard(result)
    for note in result.notes:
        print(f"note: {note}")
    if result.changed:
        print(f"{len(result.changed):,} of {result.checked:,} numbers changed since the report "
              f"({manifest.get('generated_at')}):")
        for line in result.changed:
            print(f"  {line}")
    # Every number holds: the rest of the document (its sentences, badges' classes, scripts) must
    # read as the same code renders it from the same data, or an edit of the wording would pass.
    reworded = []
    if not edited and not result.changed:
        reworded = wording.differences(text, html.render(result.fresh))
    if reworded:
        # A data file changed since the report (noted above) while every number stayed: a text the
        # report shows from the data (a theme's word) may read otherwise without any edit.
        why = ("now; a pinned file changed since it was written (noted above), so each place may be that "
               "change, not an edit" if result.data_changed else "(edited after it was written)")
        print(f"{path.name} does not read as its data gives it {why}:")
        for line in reworded:
            print(f"  {line}")
        other = check.other_code(manifest)  # asks git for the running commit: once
        if other:
            print(f"note: {other}: a wording this version writes differently is "
                  "listed too; a report made again with this version, or its --sig, tells an edit from "
                  "a change in the code")
    if edited or result.changed or reworded or not signed:
        return EXIT_PROBLEMS
    print(f"all {result.checked:,} numbers of {path.name} equal their recomputed values, each "
          "element shows its manifest entry, and the whole report reads as its data gives it")
    return EXIT_OK


def _signature_holds(path: Path, sig: Path) -> bool:
    """The report's bytes against a detached sha256 (sha256sum's format); says which way it failed."""
    try:
        want = sig.read_text(encoding="utf-8").split()[0].lower()
    except (OSError, UnicodeDecodeError, IndexError) as err:
        raise SourceError(f"--sig {sig}: cannot read a sha256 from it ({err})") from None
    have = hashlib.sha256(path.read_bytes()).hexdigest()
    if have != want:
        print(f"{path.name}: its sha256 {have[:16]}… is not the signed {want[:16]}… ({sig.name}): the file "
              "was changed after it was written")
        return False
    print(f"{path.name}: sha256 equals {sig.name}")
    return True
