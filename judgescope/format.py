"""One style for numbers and names, used by pages and the CLI alike.

Precisions are defined once, per quantity: judge-score means to 2 decimals in tables and
sentences, agreement statistics (π, κ, α) to 3 (the release cards publish 3; gates show the
exact fraction beside), shares as percentages to 1 decimal, counts with thousands separators.
Undefined values read "n/a". Names from the data are shown as the data spells them.
"""

from __future__ import annotations

import math

NA = "n/a"
MEAN_DP = 2
AGREEMENT_DP = 3
SHARE_DP = 1


def _missing(x) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x)) or x != x


def count(n) -> str:
    """12,345."""
    return NA if _missing(n) else f"{int(n):,}"


def mean(x, dp: int = MEAN_DP) -> str:
    """A score mean: 71.23."""
    return NA if _missing(x) else f"{float(x):,.{dp}f}"


def agreement(x, dp: int = AGREEMENT_DP) -> str:
    """π, κ, α: 0.800."""
    return NA if _missing(x) else f"{float(x):.{dp}f}"


def share(p, dp: int = SHARE_DP) -> str:
    """A share as a percentage: 12.3 %."""
    return NA if _missing(p) else f"{100 * float(p):.{dp}f} %"


def interval(low, high, fmt=mean) -> str:
    """[low, high] in the quantity's own format."""
    if _missing(low) or _missing(high):
        return NA
    return f"[{fmt(low)}, {fmt(high)}]"


def share_of(k, n) -> str:
    """'12 of 240 (5.0 %)'."""
    return f"{count(k)} of {count(n)} ({share(k / n if n else None)})"


def gate_value(x) -> str:
    """A gate as entered: never rounded across itself (0.7999 stays 0.7999)."""
    return NA if _missing(x) else f"{float(x):.10g}"


def short_hash(digest, chars: int = 16) -> str:
    """The start of a hex digest, marked as cut: 'fd4d13f89829b2e1…'."""
    return NA if _missing(digest) else f"{str(digest)[:chars]}…"
