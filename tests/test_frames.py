"""The one table filter pages use, and the short digest format."""

import pandas as pd

from judgescope import format as fmt
from judgescope import frames


def test_keep_filters_only_on_chosen_columns():
    t = pd.DataFrame({"a": ["x", "y", "z"], "b": [1, 2, 1]})
    assert frames.keep(t).equals(t)
    assert frames.keep(t, a=[], b=None).equals(t)
    assert frames.keep(t, a=["x", "z"])["a"].tolist() == ["x", "z"]
    assert frames.keep(t, a=["x", "y"], b=[1])["a"].tolist() == ["x"]
    assert frames.keep(t, a=["nope"]).empty


def test_short_hash():
    assert fmt.short_hash("ab" * 32) == "abababababababab…"
    assert fmt.short_hash(None) == "n/a"
