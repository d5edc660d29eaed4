"""Keyset paging state that lives in the URL: a cursor (the last row before the page), the
position of the page's first row, and a signature of what the list shows, so a cursor made for
one collection, filter or order is never applied to another. Pure (no streamlit)."""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass

SEPARATOR = "~"
MAX_AT_DIGITS = 12  # int() of a longer digit string is slow or refused (Python's 4,300-digit cap)
MAX_AFTER_CHARS = 2_000


def signature(*parts) -> str:
    """A short, stable digest of the collection, filters and order a cursor belongs to."""
    text = json.dumps(parts, sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


@dataclass(frozen=True)
class Position:
    after: tuple[float, str] | None  # the keyset of the row before this page (None: first page)
    first: int  # 1-based number of this page's first row

    def to_params(self, sig: str) -> dict:
        if self.after is None:
            return {}
        return {"after": f"{self.after[0]!r}{SEPARATOR}{self.after[1]}", "at": str(self.first),
                "sig": sig}


def read(params: dict, sig: str) -> Position:
    """The position in URL parameters `after`, `at`, `sig`; the first page when they are absent,
    malformed, or made for another list (signature differs)."""
    raw, at = params.get("after"), params.get("at")
    if (not raw or params.get("sig") != sig or not at or len(str(at)) > MAX_AT_DIGITS
            or not (str(at).isascii() and str(at).isdecimal()) or len(str(raw)) > MAX_AFTER_CHARS
            or SEPARATOR not in raw):
        return Position(None, 1)
    score, _, record = raw.partition(SEPARATOR)
    try:
        value = float(score)
    except ValueError:
        return Position(None, 1)
    if not math.isfinite(value) or not record or int(at) < 2:
        return Position(None, 1)
    return Position((value, record), int(at))


def problem(params: dict, sig: str) -> str | None:
    """A sentence when the URL holds a position for this list that cannot be used (malformed or
    out of bounds); None when there is none, it is usable, or it belongs to another list."""
    if params.get("sig") != sig or not (params.get("after") or params.get("at")):
        return None
    if read(params, sig).after is not None:
        return None
    return ("The page position in the URL (after, at) could not be used; showing the first "
            "page instead.")


def start(desc: bool) -> tuple[float, str]:
    """The keyset before every row: below the lowest score, or above the highest."""
    return (1e308, "") if desc else (-1e308, "")


def next_position(pos: Position, last: tuple[float, str], shown: int) -> Position:
    return Position(last, pos.first + shown)


def previous_position(pos: Position, before: list[tuple[float, str]], page_size: int) -> Position:
    """The previous page, from the rows before this page read backwards (nearest first), at
    most page_size + 1 of them: the extra one is the previous page's cursor."""
    if len(before) <= page_size:
        return Position(None, 1)
    return Position(before[page_size], max(1, pos.first - page_size))
