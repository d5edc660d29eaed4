"""Hardening, part 2 (issue #13): each test builds the hostile input the red-team run used."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ADVERSARIAL_DECISIONS = [
    "translation 1 is " + "a bit " * 1700 + "zzz",
    "Translation 1 is " + "a " * 5000 + "zzz",
    "translation 2 is " + "slightly a bit far " * 530 + "zzz",
    "scores: " + "1" * 10_000,
    "translation 1: " + "9" * 10_000 + " translation",
]


@pytest.mark.parametrize("text", ADVERSARIAL_DECISIONS, ids=range(len(ADVERSARIAL_DECISIONS)))
def test_ranking_parser_is_linear_on_adversarial_text(text):
    """Catastrophic backtracking held the GIL for minutes; a subprocess bounds a failing run."""
    assert len(text) >= 10_000
    code = ("import sys, time; from judgescope import ranking; t = sys.stdin.read(); "
            "s = time.perf_counter(); ranking.parse_ranking(t); ranking.parse_scores(t); "
            "print(time.perf_counter() - s)")
    done = subprocess.run([sys.executable, "-c", code], input=text, text=True, cwd=ROOT,
                          timeout=30, capture_output=True, check=False)  # 5 s + imports
    assert done.returncode == 0, done.stderr
    assert float(done.stdout) < 5


def test_ranking_parser_still_reads_a_bit_better():
    from judgescope import ranking

    assert ranking.parse_ranking("Translation 2 is a bit better than translation 1.") == 2
    assert ranking.parse_ranking("x " * 30_000 + "I prefer translation 1") == 1
