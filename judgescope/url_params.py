"""What a page's URL parameter is — its name, kind, bounds or where its options come from, and
default — and how a value read from the URL is checked against it. Pure (no streamlit): the page
registry (judgescope/navigation.py) declares every page's parameters with these, web/urls.py
reads the URL against them, and the tests read the same declarations."""

from __future__ import annotations

import math
from dataclasses import dataclass

from judgescope.text import md_literal

# int / float: a number in [low, high]; choice: one of `options` (each value, when `many`);
# bool: a toggle's "true" / "false"; text: a value the page reads, dropped when longer than
# max_chars; textbox: a text box's value, cut to max_chars; hash: a digest the page wrote;
# position: a list position the page wrote (pager.Position).
KINDS = ("int", "float", "choice", "bool", "text", "textbox", "hash", "position")
BOOL = ("true", "false")


@dataclass(frozen=True)
class Param:
    name: str
    kind: str
    # What the page shows without it: a literal; for a choice whose options come from the data, a
    # sentence saying which (e.g. "the panel"); None: no filter, or a default the page computes.
    default: object = None
    low: float | None = None
    high: float | None = None
    options: tuple[str, ...] | str = ()  # the values it takes, or (a sentence) where they come from
    many: bool = False  # repeated, as ?lang=th&lang=el
    max_chars: int | None = None
    opens: bool = False  # opens one thing (a record, an item, a pair, a list, a position), not a filter

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"URL parameter {self.name!r}: kind {self.kind!r} is none of {KINDS}")


def number(name: str, low: float, high: float, default: float | None, *, integer: bool = False,
           opens: bool = False) -> Param:
    return Param(name, "int" if integer else "float", default, low, high, opens=opens)


def choice(name: str, options: tuple[str, ...] | str, default: str | None = None, *, many: bool = False,
           opens: bool = False) -> Param:
    return Param(name, "choice", default, options=options, many=many, opens=opens)


def flag(name: str) -> Param:
    return Param(name, "bool", False, options=BOOL)


def text(name: str, max_chars: int | None, *, box: bool = False, default: str = "") -> Param:
    """A text the page reads (it opens what it names; absent: None), or a text box's (absent: `default`)."""
    return Param(name, "textbox" if box else "text", default if box else None, max_chars=max_chars,
                 opens=not box)


def _shown(value) -> str:
    return md_literal(repr(str(value)[:40]))


def _whole(raw: str, low: float, high: float) -> bool:
    """A whole number in [low, high], parsed with bounds first (no 5,000-digit int())."""
    text_ = str(raw)
    return (len(text_) <= len(str(int(high))) + 1 and text_.isascii() and text_.lstrip("-").isdecimal()
            and low <= int(text_) <= high)


def _number(raw: str) -> float:
    try:
        return float(raw)
    except ValueError:
        return math.nan


def problem(param: Param, raw: list[str], options=None) -> str | None:
    """One sentence naming `param` and the value(s) it cannot use, or None when every value is
    usable (or there is none). `options`: the values this view offers (a choice's options come
    from the data; a declared tuple is used when none are given)."""
    if not raw:
        return None
    key = param.name
    if param.kind in ("choice", "bool"):
        accepted = options if options is not None else param.options
        if isinstance(accepted, str):
            raise ValueError(f"URL parameter {key!r}: its options come from {accepted}; pass them")
        ok = {str(a) for a in accepted}
        bad = [v for v in raw if v not in ok]
        return (f"URL parameter `{key}` had {', '.join(md_literal(repr(b)) for b in bad[:5])}, which this "
                "data does not have; showing the default instead.") if bad else None
    value = raw[-1]
    if param.kind == "int" and param.opens:  # read by the page, not a widget: a whole number
        if not _whole(value, param.low, param.high):
            return (f"URL parameter `{key}` had {_shown(value)}, not a whole number from "
                    f"{param.low:,} to {param.high:,}; showing the default instead.")
        return None
    if param.kind in ("int", "float"):  # a number input's (it rounds an integer's value)
        number_ = _number(value)
        if not (math.isfinite(number_) and param.low <= number_ <= param.high):
            return (f"URL parameter `{key}` had {md_literal(repr(value))}, not a number from "
                    f"{param.low:g} to {param.high:g}; showing the default instead.")
        return None
    if param.max_chars is not None and len(str(value)) > param.max_chars:
        return (f"URL parameter `{key}` was longer than {param.max_chars:,} characters; "
                + ("only the first ones are used." if param.kind == "textbox" else "showing the default instead."))
    return None


def parse(param: Param, raw: list[str]):
    """The usable value of `param` in `raw` (the URL's values), typed: int, float, str, a list
    when `many`; None when absent (a text box's default). Call after problem() found none."""
    if not raw:
        return param.default if param.kind == "textbox" else None
    if param.many:
        return list(raw)
    value = raw[-1]
    if param.kind == "int":
        return int(float(value))
    if param.kind == "float":
        return float(value)
    if param.kind == "bool":
        return value == "true"
    if param.kind == "textbox" and param.max_chars is not None:
        return str(value)[:param.max_chars]
    return value
