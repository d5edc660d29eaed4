"""`judgescope COMMAND` (or `python -m judgescope COMMAND`): the headless twin of the pages, sharing their code.

Each command lives in judgescope/cli/commands/<name>.py with `add_arguments(parser)` and
`run(args) -> int`. Exit codes: 0 all good, 1 problems found in the data, 2 unusable input.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

# Light imports only: `judgescope --help` and an argument error import no pandas, DuckDB or numpy
# (tests/test_cli_start.py); the catalog is imported where a source is loaded.
from judgescope.ingest.manifest import DatasetSpec, SourceError, manifest_origin

if TYPE_CHECKING:
    from judgescope.sources.catalog import Loaded

COMMANDS = ("open", "demo", "init", "validate", "report", "verify", "calibrate", "rank", "compare-judges",
            "compare-methods", "themes", "reviews", "agreement", "explain", "report-html",
            "check-report", "stability", "probe-length", "build", "fingerprint", "drift")
EXIT_OK, EXIT_PROBLEMS, EXIT_UNUSABLE = 0, 1, 2
# A failure of JudgeScope itself (an uncaught exception, DuckDB out of memory): never 1, which
# Python gives an uncaught exception and which here means "problems found in the data".
EXIT_FAILED = 3
# The output's reader went away (a pipe into head): 128 + SIGPIPE, as the shell reports such a
# command.
EXIT_READER_GONE = 141


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = argparse.ArgumentParser(prog="judgescope", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    # Only the command asked for is imported (its module may pull in scipy, plotly, …); the
    # others are listed with their docstring's first line, read from their source.
    modules = {}
    for name in COMMANDS:
        if name == (argv[0] if argv else None):
            module = importlib.import_module(f"judgescope.cli.commands.{_module(name)}")
            modules[name] = module
            module.add_arguments(sub.add_parser(name, help=_first_line(module.__doc__)))
        else:
            sub.add_parser(name, help=_summary(name))
    args = parser.parse_args(argv)
    unwritable = json_folder_problem(args)
    if unwritable:
        print(f"error: {unwritable}", file=sys.stderr)
        return EXIT_UNUSABLE
    out, err_out = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = SafeStream(out), SafeStream(err_out)
    try:
        return modules[args.command].run(args)
    except SourceError as err:
        print(f"error: {err}", file=sys.stderr)
        return EXIT_UNUSABLE
    except BrokenPipeError:
        return _reader_gone(out)
    except Exception as err:  # noqa: BLE001 — reported with its traceback, never as a data problem
        return _failed(args.command, err)
    finally:
        sys.stdout, sys.stderr = out, err_out


def _reader_gone(out) -> int:
    """The reader of the output stopped reading (`judgescope explain | head`): stop quietly, as a
    command killed by SIGPIPE does (exit 141, which `set -o pipefail` reports), not with a
    traceback that calls it a defect. What is still buffered goes nowhere, so the flush at exit
    does not fail again (the Python documentation's recipe for SIGPIPE)."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), out.fileno())
    except (OSError, ValueError, AttributeError):  # not a real file (a test's captured stream)
        pass
    return EXIT_READER_GONE


def _failed(command: str, err: Exception) -> int:
    """The traceback, then one line that says what failed and that it is not the data's fault."""
    import traceback
    traceback.print_exc()
    said = str(err).splitlines()[0] if str(err).strip() else ""
    what = type(err).__name__ + (f": {said}" if said else "")
    # By name: the CLI's start does not import duckdb for a command that never uses it.
    hint = ("DuckDB needed more memory than its bound and could not spill the rest to disk; "
            "this is a limit of JudgeScope on data of this size, not a problem in the data"
            if type(err).__name__ == "OutOfMemoryException" else
            "this is a defect of JudgeScope, not a problem in the data; the traceback above says where")
    print(f"error: judgescope {command} failed ({what}): {hint}", file=sys.stderr)
    return EXIT_FAILED


# Terminal control: C0 (but tab and newline), DEL, C1 (CSI 0x9b …) and bidirectional overrides.
_TERMINAL_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def terminal_safe(text: str) -> str:
    """Data text (column names, values) that cannot drive the terminal: controls as \\uXXXX."""
    return _TERMINAL_CONTROLS.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


class SafeStream:
    """stdout/stderr for the CLI: every write made terminal-safe (also valid inside JSON text)."""

    def __init__(self, stream):
        self._stream = stream
        self.raw = stream  # for our own control sequences (a progress line's \r), never data

    def write(self, text: str) -> int:
        return self._stream.write(terminal_safe(text))

    def __getattr__(self, name):
        return getattr(self._stream, name)


def _first_line(doc: str | None) -> str:
    """A command's one-sentence help: the first sentence of its docstring's first paragraph, whole
    (a docstring's first line often stops mid-sentence)."""
    paragraph = " ".join((doc or "").strip().split("\n\n")[0].split())
    return re.split(r"(?<=[.!?])\s", paragraph, maxsplit=1)[0]


def _summary(command: str) -> str:
    """A command's help line (its module docstring's first line) without importing it."""
    import ast

    source = Path(__file__).parent / "commands" / f"{_module(command)}.py"
    return _first_line(ast.get_docstring(ast.parse(source.read_text(encoding="utf-8"))))


def _module(command: str) -> str:
    """compare-judges → compare_judges: commands are spelled with hyphens, modules with _."""
    return command.replace("-", "_")


def add_source_arguments(parser: argparse.ArgumentParser, name: str = "source", nargs=None) -> None:
    parser.add_argument(name, nargs=nargs, help="a manifest dataset name, a data file, or a folder "
                        "laid out like a Hub dataset repository")
    parser.add_argument("--config", help="config of a Hub-layout folder holding several")
    parser.add_argument("--split", help="split of a Hub-layout folder holding several")
    parser.add_argument("--form", default="flat", help="snapshot form: flat or nested")


def is_path(source: str) -> bool:
    """A source given as a path (it holds a folder separator, or a file or folder of that name
    exists) is read as it is: no manifest is opened for it."""
    return "/" in source or os.sep in source or Path(source).exists()


def load_source(source: str, kind: str | None, config: str | None = None,
                split: str | None = None, form: str = "flat") -> Loaded:
    """A file or Hub-layout folder validated as `kind` (None: the one kind its columns fit, see
    kinds.py), else a dataset of the active manifest by name."""
    from judgescope.sources.catalog import load_dataset
    from judgescope.wiring import get_catalog

    if is_path(source):
        path = Path(source).resolve()
        if not path.exists():
            raise SourceError(f"{source!r}: no such file or folder")
        spec = DatasetSpec(name=path.stem, kind=kind or "", title=path.name, base=path.parent,
                           path=path.name, config=config, split=split, form=form)
        loaded = load_dataset(spec)
    else:
        catalog = get_catalog()
        if source not in catalog.manifest.datasets:
            raise SourceError(f"{source!r} is neither a file nor a folder here, nor a dataset of "
                              f"{catalog.manifest.path.name} ({manifest_origin()})")
        loaded = catalog.dataset(source)
    if not loaded.ok:
        raise SourceError(loaded.error)
    if kind and loaded.spec.kind != kind:
        raise SourceError(f"dataset {loaded.spec.name} is a {loaded.spec.kind}, not a {kind}")
    return loaded


def declared_excluded(loaded: Loaded) -> int:
    """Rows excluded by the manifest's own [[dataset.exclude]] rules: expected, not a problem."""
    reasons = loaded.report["reasons"]
    return sum(reasons.get(r, 0) for r in {x.reason for x in loaded.spec.exclude})


def unexpected_excluded(loaded: Loaded) -> int:
    """Rows excluded for a reason the manifest did not declare (bad values, duplicates, …)."""
    return loaded.report["rows_excluded"] - declared_excluded(loaded)


def ledger_line(loaded: Loaded) -> str:
    """'<name>: loaded N = used U + excluded E' for one validated input (and how many of the
    excluded the manifest declares)."""
    r = loaded.report
    declared = declared_excluded(loaded)
    note = (f" ({declared:,} as the manifest declares)" if declared == r["rows_excluded"] else
            f" ({declared:,} as the manifest declares, {r['rows_excluded'] - declared:,} not)"
            ) if declared else ""
    return (f"{loaded.spec.name}: loaded {r['rows_loaded']:,} = used {r['rows_used']:,} + "
            f"excluded {r['rows_excluded']:,}{note}")


def print_ledger(*inputs: Loaded, file=None) -> int:
    """Print loaded = used + excluded for each input; EXIT_PROBLEMS when a row was excluded for
    a reason the manifest does not declare (no row is dropped silently), else EXIT_OK."""
    out = file or sys.stdout
    for loaded in inputs:
        print(ledger_line(loaded), file=out)
    excluded = [x.spec.name for x in inputs if unexpected_excluded(x)]
    if excluded:
        print(f"rows were excluded from {', '.join(excluded)}: `judgescope validate "
              f"{' '.join(excluded)}` lists them", file=out)
        return EXIT_PROBLEMS
    return EXIT_OK


MAX_SEED = 2**63 - 1
MAX_RESAMPLES = 200_000


def _whole(text: str, low: int, high: int, out_of_range: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a whole number") from None
    if not low <= value <= high:
        raise argparse.ArgumentTypeError(out_of_range)
    return value


def seed_arg(text: str) -> int:
    """--seed: a whole number from 0 to 2**63 − 1 (numpy's generators take no negative seed)."""
    return _whole(text, 0, MAX_SEED, f"a seed is a whole number from 0 to {MAX_SEED}")


def resamples_arg(text: str) -> int:
    """--resamples: a whole number from 1 to MAX_RESAMPLES."""
    return _whole(text, 1, MAX_RESAMPLES, f"resamples are a whole number from 1 to {MAX_RESAMPLES:,}")


def finite_float(text: str) -> float:
    """A finite number (nan and inf are refused: a nan threshold would silently select nothing)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a number") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a finite number")
    return value


def json_folder_problem(args) -> str | None:
    """A sentence when --json FILE cannot be written because its folder does not exist (checked
    before the work, so a long run does not end in a traceback)."""
    path = getattr(args, "json", None)
    if not isinstance(path, str) or not path:
        return None
    folder = Path(path).parent
    if not folder.is_dir():
        return f"--json {path}: the folder {folder} does not exist"
    if Path(path).is_dir():
        return f"--json {path}: that is a folder, not a file"
    return None


def out_problem(path: str, folder: bool, force: bool = False) -> str | None:
    """One --out contract for the commands that write reports, checked before any work: the
    parent folder exists; a file is no folder and a folder no file; an existing file is replaced
    only with --force (a folder's files are rewritten, as the option's help says)."""
    out = Path(path)
    if not out.parent.is_dir():
        return f"--out {path}: the folder {out.parent} does not exist"
    if out.exists() and out.is_dir() != folder:
        return f"--out {path}: that is a {'file' if folder else 'folder'}, not a {'folder' if folder else 'file'}"
    if not folder and out.exists() and not force:
        return f"--out {path} exists; choose another path or add --force to replace it"
    return None


def write_json(data, path: str | None) -> None:
    text = json.dumps(data, indent=1, ensure_ascii=False, default=str)
    if path:
        try:
            Path(path).write_text(text + "\n", encoding="utf-8")
        except OSError as err:
            raise SourceError(f"--json {path}: cannot write it ({err.strerror})") from None
