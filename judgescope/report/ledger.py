"""Every number a report shows, with the query and function that made it (the report's manifest).

A number is recorded once, under a stable id, with its exact value (JSON: floats keep full
precision), the text the report shows, and where it comes from. `cli` names the same number in a
CLI command's JSON ([command, file, key, key, …]) when one prints it."""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field

import markupsafe

# The attribute that binds a shown element to its manifest entry (check-report reads it back).
ATTR = "data-n"


class Shown(str):
    """The text a report shows for one manifest entry. As a string it is that text; rendered by
    the templates (autoescape) it is an element carrying the entry's id, so check-report can
    compare what a reader sees with the manifest: `<span data-n="id">text</span>`, or in SVG
    (the `svg` filter) `<tspan data-n="id">text</tspan>`."""

    id: str

    def __new__(cls, text: str, id: str):
        out = super().__new__(cls, text)
        out.id = id
        return out

    def element(self, tag: str = "span") -> markupsafe.Markup:
        return markupsafe.Markup('<{0} {1}="{2}">{3}</{0}>').format(
            markupsafe.Markup(tag), markupsafe.Markup(ATTR), self.id, str(self))

    def __html__(self) -> markupsafe.Markup:
        return self.element()


def bound(template: str, *parts) -> markupsafe.Markup:
    """A text made of shown entries ("[{}, {}]"): each part keeps its binding, plain parts are
    escaped."""
    return markupsafe.Markup(template).format(*parts)


def key(text, limit: int = 80) -> str:
    """Data text as part of a number's id: itself when short, else its start and a digest."""
    text = str(text)
    if len(text) <= limit:
        return text
    return f"{text[:48]}…{hashlib.sha256(text.encode('utf-8', 'surrogatepass')).hexdigest()[:12]}"


def clean(value):
    """A JSON scalar: numpy → Python, NaN → None, Fraction → float."""
    if value is None:
        return None
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, bool) or isinstance(value, (int, str)):
        return value
    value = float(value)
    return None if math.isnan(value) else value


@dataclass
class Ledger:
    numbers: dict[str, dict] = field(default_factory=dict)

    def add(self, id: str, value, shown: str, *, query: str | None, function: str,
            cli: list | None = None) -> Shown:
        """Record one number; returns the text shown, bound to its id (so a template shows exactly
        this, and check-report can find it)."""
        entry = {"id": id, "value": clean(value), "shown": shown, "query": query,
                 "function": function}
        if cli:
            entry["cli"] = [str(x) for x in cli]
        self.numbers[id] = entry
        return Shown(shown, id)

    def text(self, id: str, text: str, function: str) -> Shown:
        """Record a computed text the report shows (a verdict badge, a gate sentence, a method):
        its value is the text itself, recomputed and compared like a number."""
        return self.add(id, text, text, query=None, function=function)

    def label(self, id: str, text: str) -> Shown:
        """A row's or a finding's label from the data (a language, a unit, a judge, a system),
        bound so a label moved to another row is seen: `<id>.label`."""
        return self.text(f"{id}.label", str(text), "the data's own label (as the report shows it)")

    def values(self) -> dict:
        return {k: v["value"] for k, v in self.numbers.items()}


def same(a, b, rel: float = 1e-9) -> bool:
    """Equal numbers (floats within a relative 1e-9: the same function on the same data)."""
    if isinstance(a, float) or isinstance(b, float):
        if a is None or b is None:
            return a is b
        return math.isclose(float(a), float(b), rel_tol=rel, abs_tol=1e-12)
    return a == b
