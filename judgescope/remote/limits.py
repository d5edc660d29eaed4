"""Caps on what a visitor may have validated (an upload, a Hub dataset opened from the browser):
rows and uncompressed bytes as well as the bytes sent, measured before validation starts from
what costs nothing to read (a Parquet footer, a text file's line breaks, a zip's directory). A
7.5 MB Parquet file can hold 20,000,000 rows: its size alone says little of the build's cost.
Pure: no streamlit, no DuckDB."""

from __future__ import annotations

import os
import zipfile
from dataclasses import dataclass
from pathlib import Path

from judgescope.ingest.manifest import SourceError


@dataclass(frozen=True)
class Caps:
    what: str  # "upload", "Hub open": named in the refusal
    rows: int
    uncompressed: int
    rows_env: str
    uncompressed_env: str

    def check(self, files: list[Path], root: Path | None = None) -> None:
        """Refuse (SourceError naming the file and the cap) when the files hold more rows or more
        uncompressed bytes than the caps, in all."""
        rows = size = 0
        for path in files:
            n, b = measure(path)
            rows, size = rows + (n or 0), size + b
            name = _name(path, root)
            if rows > self.rows:
                raise SourceError(f"{rows:,} rows, over the {self.what} cap of {self.rows:,} rows "
                                  f"({self.rows_env}): not validated", file=name)
            if size > self.uncompressed:
                raise SourceError(f"{size:,} bytes uncompressed, over the {self.what} cap of "
                                  f"{self.uncompressed:,} bytes ({self.uncompressed_env}): not "
                                  "validated", file=name)

    def __call__(self, resolved) -> None:  # catalog.load_dataset's limits(resolved)
        self.check(list(resolved.files), resolved.root)


def caps(what: str, prefix: str, rows: int, uncompressed: int) -> Caps:
    """Caps from the environment (<prefix>_MAX_ROWS, <prefix>_MAX_UNCOMPRESSED_BYTES), else the
    defaults given."""
    rows_env, size_env = f"{prefix}_MAX_ROWS", f"{prefix}_MAX_UNCOMPRESSED_BYTES"
    return Caps(what, _env_int(rows_env, rows), _env_int(size_env, uncompressed), rows_env, size_env)


def _env_int(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip().replace("_", "")
    return int(raw) if raw.isdigit() else default


def _name(path: Path, root: Path | None) -> str:
    try:
        return path.relative_to(root).as_posix() if root else path.name
    except ValueError:
        return path.name


def measure(path: Path) -> tuple[int | None, int]:
    """(rows, uncompressed bytes) of a data file: a Parquet footer's row count and column sizes,
    a zip's member sizes (rows unknown), a text file's line breaks and size. A file that cannot
    be measured so counts its size and no rows (validation then says what is wrong with it)."""
    size = path.stat().st_size
    with path.open("rb") as fh:
        magic = fh.read(4)
    if magic == b"PAR1":
        import pyarrow as pa
        import pyarrow.parquet as pq

        try:
            meta = pq.read_metadata(path)
            return meta.num_rows, max(size, sum(meta.row_group(i).total_byte_size
                                                for i in range(meta.num_row_groups)))
        except (OSError, pa.ArrowException):
            return None, size
    if magic[:2] == b"PK":
        try:
            with zipfile.ZipFile(path) as z:
                return None, max(size, sum(i.file_size for i in z.infolist()))
        except (OSError, zipfile.BadZipFile):
            return None, size
    return _lines(path), size


def _lines(path: Path) -> int:
    """Line breaks, plus a last line without one (an upper bound on a text file's rows)."""
    lines, last = 0, b"\n"
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            lines += block.count(b"\n")
            last = block[-1:]
    return lines + (last != b"\n")
