"""Every number a report shows, with the query and function that made it (the report's manifest).

A number is recorded once, under a stable id, with its exact value (JSON: floats keep full
precision), the text the report shows, and where it comes from. `cli` names the same number in a
CLI command's JSON ([command, file, key, key, …]) when one prints it."""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field


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
            cli: list | None = None) -> str:
        """Record one number; returns the text shown (so a template shows exactly this)."""
        entry = {"id": id, "value": clean(value), "shown": shown, "query": query,
                 "function": function}
        if cli:
            entry["cli"] = [str(x) for x in cli]
        self.numbers[id] = entry
        return shown

    def values(self) -> dict:
        return {k: v["value"] for k, v in self.numbers.items()}


def same(a, b, rel: float = 1e-9) -> bool:
    """Equal numbers (floats within a relative 1e-9: the same function on the same data)."""
    if isinstance(a, float) or isinstance(b, float):
        if a is None or b is None:
            return a is b
        return math.isclose(float(a), float(b), rel_tol=rel, abs_tol=1e-12)
    return a == b
