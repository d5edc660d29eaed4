"""A list with an opened row (Review's grid, Pairs), as sequences: Hypothesis walks random runs
of select a row, filter the list, Next, Prev and rerun against a model of what Streamlit does
with a selectable grid (a selection is a row position kept per widget key, a new key starts at
its default selection, a key not drawn in a run is forgotten) and of the page's logic (a picked
row is opened when it is another; Next / Prev walk the list). After every step the grid may mark
only the opened row, and the opened row changes only when the user picks, or steps to, another.

The grid's key and default come from judgescope.web.render (selection_key, opened_in), as the
pages use them. Under a fixed key, as the pages had, the same machine finds a failing sequence
(the last test), so the invariant is one the old code broke.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule, run_state_machine_as_test

from judgescope.audit.rows import list_step
from judgescope.web.render import opened_in, selection_key

ITEMS = [f"p{i}" for i in range(8)]
FILTERS = [tuple(ITEMS), tuple(ITEMS[::2]), tuple(ITEMS[1::2]), tuple(ITEMS[:3]), tuple(ITEMS[5:])]


def real_grid(ids: list[str], opened: str | None) -> tuple[str, list[int]]:
    """The page's grid: its widget key and default selection (render.opened_in)."""
    kw = opened_in(ids, opened)
    default = kw["selection_default"]
    return selection_key("grid", kw["identity"]), (default["selection"]["rows"] if default else [])


def fixed_key_grid(ids: list[str], opened: str | None) -> tuple[str, list[int]]:
    """The pages before: one key for every list and opened row, no default."""
    return "grid", []


def machine(grid):
    class OpenedRow(RuleBasedStateMachine):
        def __init__(self):
            super().__init__()
            self.listed = list(FILTERS[0])
            self.opened: str | None = None   # the URL's record / pair
            self.kept: dict[str, list[int]] = {}  # Streamlit: selection per widget key
            self.key, self.shown = None, []
            self.run()

        def run(self) -> None:
            """One script run: draw the grid, act on a selection of another row (open it and
            run again), forget the selections of keys not drawn."""
            for _ in range(3):
                self.key, default = grid(self.listed, self.opened)
                self.shown = self.kept.get(self.key, default)
                self.kept = {self.key: self.shown}
                if self.shown and self.listed[self.shown[0]] != self.opened:
                    self.opened = self.listed[self.shown[0]]
                    continue  # the page reruns with the new URL
                return

        @rule(i=st.integers(0, len(ITEMS) - 1))
        def select(self, i):
            if i >= len(self.listed):
                return
            self.kept[self.key] = [i]
            self.expected = self.listed[i]
            self.run()
            assert self.opened == self.expected, "the picked row was not the one opened"

        @rule(f=st.sampled_from(FILTERS))
        def filter(self, f):
            before = self.opened
            self.listed = list(f)
            self.run()
            assert self.opened == before, f"a filter opened {self.opened} in place of {before}"

        @precondition(lambda self: self.opened in self.listed)
        @rule(step=st.sampled_from(["next", "prev"]))
        def walk(self, step):
            prev, nxt, _ = list_step(self.listed, self.opened)
            target = nxt if step == "next" else prev
            if target is None:
                return
            self.opened = target
            self.run()
            assert self.opened == target

        @rule()
        def rerun(self):
            before = self.opened
            self.run()
            assert self.opened == before, "a rerun alone changed the opened row"

        @invariant()
        def marks_only_the_opened_row(self):
            marked = [self.listed[r] for r in self.shown]
            assert marked in ([], [self.opened]), f"marks {marked} while {self.opened} is open"

    return OpenedRow


def test_the_grid_marks_only_the_opened_row_and_opens_only_what_is_picked():
    run_state_machine_as_test(machine(real_grid), settings=settings(
        max_examples=300, stateful_step_count=25, deadline=None, suppress_health_check=list(HealthCheck)))


def test_the_opened_row_is_marked_when_it_is_listed():
    key, shown = real_grid(ITEMS, "p3")
    assert shown == [3] and real_grid(ITEMS[::2], "p3")[1] == []


def test_under_one_fixed_key_the_machine_finds_a_wrong_row():
    """The model is not vacuous: the pages' old fixed key fails it, with a mark or an opened row
    that outlives its list, or a kept row position past the end of a shorter list (an IndexError,
    as the pages' iloc would raise)."""
    with pytest.raises((AssertionError, IndexError, ExceptionGroup)) as failed:
        run_state_machine_as_test(machine(fixed_key_grid), settings=settings(
            max_examples=300, stateful_step_count=25, deadline=None, database=None, derandomize=True,
            suppress_health_check=list(HealthCheck)))
    found = failed.value.exceptions if isinstance(failed.value, ExceptionGroup) else [failed.value]
    assert found and all(isinstance(e, (AssertionError, IndexError)) for e in found), found
