"""Why targets are missed and what to change: the analysis written for the committed run.

Kept beside the code so a re-run of `make bench` keeps it in bench/results.md; the figures in
the tables above it are regenerated, these sentences are not — re-read them after a change.
"""

NOTES = """
## This run (issue #45): what it measured, and what is missed

`make bench` (`python -m bench` with its defaults: 10k, 1M and 10M rows × integer, float and
mixture scores, every phase, 5 repeats, then the demo's cold starts) at commit 9a29efa, after a
clean-clone `bash .ci/run` had passed on it; 2026-12-05 08:49–10:02 UTC, nothing else running
(load average 1.1–2.7 in the phases' tables). The float report on 20,000 demo-shaped rows
(bench/demo_report.py, its own section above) was measured right after, at 1f482f8 (the same
app code; it adds only that measurement). Seconds across runs of this shared VM differ by up
to 30 %, and raw DuckDB's own baseline moved 10 % between the three 10M-row files of this run:
compare ratios within one run.

What changed since the previous committed run (868b9c8, 06:23–07:38 the same day):
- **The check pass** trims a text only when it starts with a blank, and a whole-number column
  skips the integrality test that cannot fail on it: the 10M-row audit's rules took 3.6 s,
  now 0.8 s (tests/test_validate_rules.py).
- **Verification's summary** probes the mismatched rows' hints only from the mismatched rows
  (1.1 s against 1.65 s at 10M rows).
- **A binned audit's per-score counts were written unsorted** in this run (5.7 s less at the
  float audit's first open), and **reverted after it** (83d8aad): the float audit's Review at
  10M rows got slower (open on all rows 239 → 278 ms median and 320 ms p95, over the 300 ms
  target; language × unit 64 → 148 ms), because the sorted counts cluster each language's rows
  and scores for DuckDB's row-group statistics. The committed code writes them sorted again;
  its float audit at 10M was measured once more after the revert (below).
- **The bench measures the float report on demo-shaped data** (issue 45 item 1's 20k rows),
  where it was found slow; the bench's own audits hide it.

**Issue 45's targets in this run.**

1. **First open ≤ 1.5× raw DuckDB at 10M rows: met for integer scores, missed for float and
   mixture.** Integer 146.4 s against raw's 102.8 s (**1.42×**); float 148.9 s against 92.5 s
   (**1.61×**); mixture 143.2 s against 94.7 s (**1.51×**). The app's first open now costs the
   same for the three score types (143–149 s; validation 109–116 s, derived tables 33–37 s):
   the ratios differ because raw DuckDB's sort of the three files took 58–68 s in this run (in
   the previous run 59–64 s). At the app's own codec level raw took 98.4, 89.5 and 84.5 s (app
   1.49×, 1.66×, 1.69×). What is left above raw: validation's checks, input SHA-256, counts,
   score summaries and report (about 15 s), the verification join sorted by id (about 27 s),
   the default intervals (3–4 s). Issue 28's 120 s is missed at 10M (143–149 s).
2. **Float `report` ≤ 1.2× the integer one as a process: met on the bench's data at every size,
   missed cold on demo-shaped data.** Bench data: 10k cold 1.01×, warm 0.81×; 1M cold 0.92×,
   warm 0.88×; 10M cold 1.14×, warm 1.02×. Demo-shaped 20k rows: **cold 1.71×** (3.13 s against
   1.83 s; CPU 4.93 s against 2.57 s), warm 1.09×. A profile of the cold runs puts the gap in
   the first open's default intervals: the float audit's 39 groups drawn as chains of 50
   binomials cost 2.2 s of CPU (66 ms for a group of ~900 rows), its 66 small groups drawn row
   by row 0.9 s; the integer audit's 103 groups have 12.5 distinct scores on average (the demo's
   scores are coarse) and cost 1.3 s in all. An exact multinomial resample costs one binomial
   per cell or one draw per row, so a float group drawn over 50 cells cannot cost what a
   12-score integer group does: closing it needs a decision on the draw method (fewer cells per
   float group, with a larger stated endpoint bound, or an exact bootstrap distribution on the
   bins' grid instead of a seeded draw), which changes the published float intervals.
3. **Starts: met** (the table at the top): `--help` 0.09 s as a whole process, every other
   command's imports 0.27–0.56 s, the demo's cold start a median 2.52 s over 5 starts (slowest
   2.71 s).
4. **The bench measures processes: done**, with each phase's load average, and now the
   demo-shaped float report.

**Issue 28's targets, kept in this run except one cell, which the revert restores**: every
interaction within 100 ms p95 at 10k (worst 70.8 ms) and within 300 ms p95 at 1M and 10M except
the float audit's Review on all rows at 10M (320 ms p95, the unsorted counts above; 247 ms in
the previous run with sorted counts); peak RSS ≤ 1,240 MB in every app phase; verification
1.03–1.06× hashlib at 10M and about 1× at 1M, not at 10k (0.41–0.45×: 6 MB hashed in about 25
ms, DuckDB's fixed cost per query). ≥ 20× faster than pandas is not a target here (lowest
ratios listed). "app ≤ 1.3× raw DuckDB" is missed by one tiny query in several sizes (verify
summary, 1.15–1.52× of a few ms; 1.14–1.47× in the previous run).

**The float audit at 10M rows once more, on the committed code (83d8aad, counts sorted again)**,
10:03–10:13 UTC, `python -m bench --rows 10000000 --scores float --phases pages` (the whole
table in bench/results-10M-float-83d8aad.md): first open 157.1 s (validation 121.2 s + derived
tables 35.8 s) against raw DuckDB's 105.2 s, **1.49×** (met; raw's sort of the same file took
71.0 s here against 58.0 s in the run above, so this ratio is as near the target as the run's
spread); every interaction within 300 ms p95 again (18/18; worst Review on all rows 282 ms,
median 257 ms; language × unit 72 ms).

**Not measured: 100M rows** (this machine's disk, as in the previous runs: raw DuckDB's sort of
the 100M-row audit filled 46 GB of spill).
"""
