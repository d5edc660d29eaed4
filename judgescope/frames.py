"""Filters pages apply to tables they already hold, written once: keep the rows whose column
value is among the chosen ones (an empty choice keeps every row). Pure (no streamlit)."""

from __future__ import annotations

import pandas as pd


def keep(frame: pd.DataFrame, **chosen) -> pd.DataFrame:
    """Rows of `frame` whose value in each named column is among its chosen values; a column
    with no chosen value (None or empty) does not filter."""
    mask = pd.Series(True, index=frame.index)
    for column, values in chosen.items():
        if values:
            mask &= frame[column].isin(list(values))
    return frame[mask].reset_index(drop=True)
