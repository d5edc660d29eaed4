"""The label budget of an undecided gate: how many more labelled items would decide it.

For a gate whose CI straddles it (INCONCLUSIVE), new items are drawn from the observed cell
rates of the rater's confusion table, appended to the observed items, and the gate's CI is
recomputed on the enlarged table. The budget is the smallest number of added items (on a
doubling grid) at which at least 80% of the simulated futures have a CI that no longer contains
the gate. Every future at a grid point extends the same seeded stream of items (common random
numbers), so the estimated chance rises smoothly with the budget.
"""

from __future__ import annotations

import numpy as np

from judgescope.calibration import exact
from judgescope.stats import DEFAULT_SEED, _exact

TARGET = 0.80
FUTURES = 200
RESAMPLES = 1_000
GRID = (25, 50, 100, 200, 400, 800, 1_600, 3_200, 6_400, 12_800)


def _ci_clears(tables: np.ndarray, stat, gate: float, rng, level: float) -> np.ndarray:
    """For each table (F, 4): does its percentile bootstrap CI (RESAMPLES draws) exclude the
    gate? The CI 'clears' when high < gate or low >= gate (the gate rule: low < gate <= high
    is INCONCLUSIVE)."""
    n = tables.sum(1)
    draws = rng.multinomial(n, tables / n[:, None], size=(RESAMPLES, len(tables)))
    values = stat(draws.reshape(-1, 4)).reshape(RESAMPLES, len(tables))
    tail = 100 * (1 - level) / 2
    low, high = np.nanpercentile(values, [tail, 100 - tail], axis=0)
    return (high < gate) | (low >= gate)


def label_budget(table, gate, stat=exact.pi_of, level: float = 0.95,
                 seed: int = DEFAULT_SEED, target: float = TARGET, futures: int = FUTURES,
                 grid=GRID) -> dict:
    """Smallest number of added items (on `grid`) with P(CI clears the gate) >= target, at the
    observed rates of `table` ([00, 01, 10, 11] counts); None when no grid point reaches it."""
    t = np.asarray(table, dtype=np.int64).ravel()
    n = int(t.sum())
    g = float(_exact(gate))
    rng = np.random.default_rng(seed)
    # Each simulated future is one seeded stream of items, extended as the grid grows.
    added, previous, chances = np.zeros((futures, t.size), dtype=np.int64), 0, []
    for m in grid:
        added += rng.multinomial(m - previous, t / n, size=futures)
        previous = m
        enlarged = t[None, :] + added
        chance = float(_ci_clears(enlarged, stat, g, rng, level).mean())
        chances.append({"added": int(m), "chance": chance})
        if chance >= target:
            break
    hit = chances[-1] if chances[-1]["chance"] >= target else None
    point = float(stat(t[None, :])[0])
    return {
        "added_items": None if hit is None else hit["added"], "chance": chances,
        "target": target, "gate": g, "observed": point, "n": n,
        "method": (f"seeded simulation (seed {seed}): {futures} futures that add items drawn "
                   f"from the observed cell rates to the {n} labelled items; at each added count "
                   f"on the grid {', '.join(f'{m:,}' for m in grid)}, the {level:.0%} percentile "
                   f"bootstrap CI ({RESAMPLES:,} resamples) is recomputed and counted as clearing "
                   f"when it no longer contains the gate; the budget is the first count where at "
                   f"least {target:.0%} clear. New items are assumed independent (new questions)."),
        "sentence": _sentence(hit, chances, point, g, target, n)}


def _sentence(hit, chances, point, gate, target, n) -> str:
    if hit is not None:
        return (f"about {hit['added']:,} more labelled items (n = {n + hit['added']:,}) give a "
                f"{hit['chance']:.0%} chance that the CI clears the gate {gate:g} at the "
                f"observed rates")
    last = chances[-1]
    return (f"no budget up to {last['added']:,} more items gives a chance of at least "
            f"{target:.0%} (at {last['added']:,}: {last['chance']:.0%}): at the observed rates "
            f"the statistic ({point:.5f}) sits {abs(point - gate):.5f} from the gate {gate:g}, so "
            "more labels at these rates would leave the CI on both sides of it")
