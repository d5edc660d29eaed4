"""Field checks for review rows, typed here or read from a shared log: a hostile row is refused
with its row and column named, never stored (a bad tags text would crash its record's view on
every instance; a far-future time would stay a reviewer's latest verdict forever; an invisible
character would make one reviewer two). Pure: no streamlit."""

from __future__ import annotations

import json
import unicodedata
from datetime import datetime, timedelta, timezone

import pandas as pd

FUTURE_SKEW = timedelta(minutes=5)  # clocks of instances sharing a log may differ this much
NAME_MAX_CHARS = 200
# Unicode categories a reader cannot see: format (zero-width space, joiners, bidi controls),
# controls, line/paragraph separators, unassigned and private use.
INVISIBLE = {"Cf", "Cc", "Zl", "Zp", "Co", "Cn", "Cs"}


def reviewer_name(name) -> str:
    """A reviewer name folded to NFKC with its spaces collapsed (so full-width 'ａｎｎ',
    mathematical bold '𝐚𝐧𝐧' and 'ann' are one reviewer, and 'ann  lee' is 'ann lee');
    ValueError when empty, too long, or holding a character a reader cannot see (so 'alice'
    and 'alice' + U+200B are not two reviewers)."""
    text = unicodedata.normalize("NFC", str(name)).strip()
    if not text:
        raise ValueError("a verdict needs a reviewer name")
    if len(text) > NAME_MAX_CHARS:
        raise ValueError(f"a reviewer name is at most {NAME_MAX_CHARS} characters")
    hidden = [c for c in text if unicodedata.category(c) in INVISIBLE or (c.isspace() and c != " ")]
    if hidden:
        raise ValueError(f"a reviewer name may not hold invisible characters "
                         f"({', '.join(f'U+{ord(c):04X}' for c in hidden[:3])})")
    return " ".join(unicodedata.normalize("NFKC", text).split())


# Letters of other scripts drawn like Latin ones (Cyrillic, Greek; from Unicode's confusables.txt),
# and the digits read as letters: what NFKC leaves apart but a reader takes for the same name.
_LOOK_ALIKE = str.maketrans("авекмнорстухіјѕһԁԛԝӏαβεζηικμνορτυχɡ01",
                            "abekmhopctyxijshdqwlabezhikmvoptyxgol")


def skeleton(name: str) -> str:
    """What a reader sees of a name: NFKC, case-folded, look-alike letters mapped to Latin."""
    return " ".join(unicodedata.normalize("NFKC", str(name)).casefold().translate(_LOOK_ALIKE).split())


def look_alike_groups(names) -> list[str]:
    """One sentence per set of different reviewer names that read alike (a log imported or
    shared from elsewhere can bring them): counted as different reviewers, so said."""
    groups: dict[str, list[str]] = {}
    for name in sorted(set(names)):
        groups.setdefault(skeleton(name), []).append(name)
    return [f"The reviewer names {', '.join(repr(n) for n in g)} look alike but are different names, "
            "counted as different reviewers." for g in groups.values() if len(g) > 1]


def look_alike(name: str, existing) -> str | None:
    """One sentence when `name` reads as an existing reviewer name but is another, else None."""
    if name in set(existing):
        return None
    seen = skeleton(name)
    other = next((n for n in sorted(set(existing)) if skeleton(n) == seen), None)
    if other is None:
        return None
    odd = [f"U+{ord(c):04X} {unicodedata.name(c, '')}".strip() for c in dict.fromkeys(name) if c not in other]
    return (f"The reviewer name {name!r} looks like the existing reviewer {other!r} but is another name"
            + (f" ({', '.join(odd[:3])})" if odd else "") + f": verdicts under it count as a new "
            f"reviewer. If you are {other!r}, type that name.")


def tags_list(text) -> list[str]:
    """The tags of a stored row: a JSON list of strings; ValueError otherwise."""
    try:
        value = json.loads(text) if isinstance(text, str) else text
    except json.JSONDecodeError as err:
        raise ValueError("tags are not JSON (a JSON list of strings is expected)") from err
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise ValueError("tags are not a JSON list of strings")
    return value


def shown_tags(text) -> list[str]:
    """Tags for display: a row stored before these checks that is not a list shows none."""
    try:
        return tags_list(text)
    except ValueError:
        return []


def created_at(text, now: datetime | None = None) -> str:
    """A stored time: ISO 8601, a real date, with a zone (or read as UTC), not later than now
    plus FUTURE_SKEW; returned in UTC as the store writes it, so times sort as text."""
    try:
        when = datetime.fromisoformat(str(text))
    except ValueError as err:
        raise ValueError(f"created_at {str(text)[:40]!r} is not an ISO 8601 time") from err
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    when = when.astimezone(timezone.utc)
    if when > (now or datetime.now(timezone.utc)) + FUTURE_SKEW:
        raise ValueError(f"created_at {str(text)[:40]!r} is in the future")
    return when.isoformat(timespec="microseconds")


def check_rows(frame: pd.DataFrame, source: str) -> pd.DataFrame:
    """The log's rows with reviewer, created_at and tags checked and normalised; ValueError
    naming the source, row and column of the first bad field."""
    out = frame.copy()
    now = datetime.now(timezone.utc)
    for column, check in (("reviewer", reviewer_name), ("created_at", lambda v: created_at(v, now)),
                          ("tags", lambda v: json.dumps(tags_list(v), ensure_ascii=False))):
        values = []
        for index, value in out[column].items():
            try:
                values.append(check(value))
            except ValueError as err:
                raise ValueError(f"{source}: row {index}, column {column}: {err}") from None
        out[column] = values
    return out
