"""A bounded prefix of a data cell: a 50 MB text is not sent whole to the browser.

Pages show `prefix(text).shown` with a note built from its size, and the whole text only when
asked ("show all"). Pure Python; no streamlit.
"""

from __future__ import annotations

from dataclasses import dataclass

SHOWN_CHARS = 20_000


@dataclass(frozen=True)
class Prefix:
    shown: str
    chars: int  # characters in the whole text
    utf8_bytes: int  # its size as UTF-8

    @property
    def truncated(self) -> bool:
        return len(self.shown) < self.chars

    def note(self) -> str:
        """"Showing the first 20,000 of 52,428,800 characters (50.0 MB)." or ""."""
        if not self.truncated:
            return ""
        return (f"Showing the first {len(self.shown):,} of {self.chars:,} characters "
                f"({self.utf8_bytes / 2**20:.1f} MB).")


def prefix(text: str | None, limit: int = SHOWN_CHARS) -> Prefix:
    """The first `limit` characters of `text` (never splitting a surrogate pair) and its size."""
    text = "" if text is None else str(text)
    cut = text[:limit]
    if cut and "\ud800" <= cut[-1] <= "\udbff":
        cut = cut[:-1]
    return Prefix(cut, len(text), len(text.encode("utf-8", "surrogatepass")))
