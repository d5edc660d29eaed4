"""Defaults the command line's argument parser reads without importing numpy or pandas (a
command's --help and an argument error stay fast): the bootstrap's seed and resamples and the
explanation themes' low-score threshold. The statistics modules take theirs from here, so each
is written once."""

from fractions import Fraction

SEED = 20260810
RESAMPLES = 10_000
THEME_THRESHOLD = 60.0
THEME_MIN_COUNT = 3
BLIND_THRESHOLD = 50.0  # a judge's pass against blind labels: score at or above this
JUDGE_GATE, PANEL_GATE = Fraction(3, 5), Fraction(4, 5)  # Scott's pi gates of a judge and the panel
NO_SPLIT = "(no split)"  # the calibration split choice that selects items whose split is NULL
