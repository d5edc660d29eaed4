"""Why targets are missed and what to change: the analysis written for the committed run.

Kept beside the code so a re-run of `make bench` keeps it in bench/results.md; the figures in
the tables above it are regenerated, these sentences are not — re-read them after a change.
"""

NOTES = """
## This run (issue #45): what it measured, and what is missed

`make bench` (`python -m bench` with its defaults: 10k, 1M and 10M rows × integer, float and
mixture scores, every phase, 5 repeats, then the demo's cold starts) at commit 870ae7e, the
commit a clean-clone `bash .ci/run` had just passed on; 2026-12-05 06:23–07:38 UTC. The
test run had just ended when it began (load average 7.2, falling to 1.5–2.5 from the 1M sizes
on); each phase's load average is in its table. Seconds across runs of this shared VM differ by
up to 30 %: compare ratios within one run.

What changed since the previous committed run (2026-12-02, commit 8ce27e6):
- **The first open writes less.** Hash verification writes every audit row once
  (`hash_verification_by_id`), keeps in `hash_verification` only the rows a page lists, streams
  the join's classified rows once and finds the few mismatches' normalisation hints afterwards
  (`hash_verification_hints`); with a snapshot joined, the by-id table is also the record index
  (the audit's ids are sorted once, not twice). The exact copies' rows, the model provenance and
  the Compare versions joins are built when a page first reads them (shown apart: "built on first
  read"). Every cached table is written as zstd at level 1 (DuckDB's default is level 3): the
  10M-row audit's sorted write took 71 s of CPU against 79–92 s, for a file 6 % larger. Raw
  DuckDB's baseline is measured at both levels: the target is judged against DuckDB's defaults,
  as it was defined, and the first open's ratio at the app's own level is stated beside it.
- **Stored intervals.** The Distributions page's default intervals and each language's interval
  are drawn once at the first open, in one thread pool across facets; Languages, Overview and
  `report` read them.
- **Starts.** The CLI imports only the command asked for, `validate` imports no pandas, scipy is
  imported where it is used, and the server's first page skips Streamlit's REPL check and
  imports neither scipy nor `datasets`.
- **The bench measures processes** (issue 45 item 4, "Commands as processes" in each size): the
  README's commands as subprocesses, cold (an empty cache, the first open included) and warm, with
  the load average. Above 1M rows `verify` and `report-html`, whose cold run is the collection's
  whole first open (the build phase, measured beside raw DuckDB), run warm only.

**Issue 45's targets in this run.**

1. **First open ≤ 1.5× raw DuckDB at 10M rows: met for integer scores only.** Integer 138.8 s
   against raw's 98.9 s (**1.40×**; 1.65× at the last stop, 2.12× in the previous committed
   run); **float 161.7 s against 100.9 s (1.60×) and mixture 150.4 s against 95.4 s (1.58×):
   missed.** The difference is validation (integer 106.6 s, mixture 115.4 s, float 125.6 s),
   while raw's work differs by 2–6 s and the derived tables by 1–4 s (32.2–36.1 s): a float
   audit's validation costs about 19 s more than an integer one's at 10M, not yet profiled
   stage by stage (the exact order statistics and score bins of 10M distinct scores are the
   first suspect, since an integer audit has about 100 distinct scores). Against raw at the
   app's own codec level (zstd 1: 81.2, 92.2 and 84.5 s) the ratios are 1.71×, 1.75× and 1.78×:
   the codec level is part of how the integer audit meets the target, and the rest of the first
   open (the checks, the input files' SHA-256, verification, the default intervals) still costs
   about 0.7× raw's work. At 1M and 10k the ratio is no target (2.1–2.2× at 1M; 25–27× at 10k,
   fixed costs). Issue 28's 120 s is missed at 10M (139–162 s).
2. **Float `report` ≤ 1.2× the integer one as a process, cold and warm: met on the bench's
   data at every size** (10k cold 1.06×, warm 0.98×; 1M cold 0.95×, warm 0.75×; 10M cold 1.14×, warm 0.88×).
   **Not met on demo-shaped data**: 20,000 rows of the demo's V2 audit with integer scores
   against the same rows with 4-decimal floats, cold, is 1.75–1.8× (measured apart at load 4–5,
   CPU 5.8 s against 3.1 s; warm 1.00–1.16×). The whole gap is the first open's default
   intervals: a float group is drawn over up to 64 merged score bins (about 50 here), an
   integer demo group over its 20–27 distinct scores, one seeded numpy binomial draw of 10,000
   resamples per cell. The bench's integer audit has about 70 distinct scores per group, so its
   integer draws cost as much as the float ones and hide this. Closing it needs a decision on
   the draw method (fewer cells for a float group, or an exact distribution of the bootstrap mean
   on the bins' grid instead of a seeded draw), which changes the published intervals.
3. **Starts: met** (the table at the top): `--help` 0.09 s as a whole process, every other
   command's imports 0.26–0.64 s, the demo's cold start a median 2.90 s over 5 starts (slowest 3.27 s; load 1.2–1.6).
4. **The bench measures processes: done**, with each phase's load average.

**Issue 28's targets, kept**: every interaction within 300 ms p95 at 1M and 10M (worst at 1M:
opening a record, 73–115 ms; at 10M 117–247 ms, the float audit's Review on all rows) and within
100 ms p95 at 10k for the integer and mixture audits (worst 37 and 76 ms); **the float audit at
10k misses it in one cell**: Distributions faceted by run group, p95 308 ms, the slowest of its
5 runs (362 ms) while the test run's load was still decaying (load 3.4–5.3); its median is 72 ms
and its other four runs 60–90 ms; peak RSS ≤ 2 GB in every app phase (10M: 1,232 MB, the
verification phase; the cold build 1.7 GB); verification ≥ 80 % of hashlib at 1M and 10M
(1.00–1.12×), not at 10k (0.41–0.43×: 6 MB hashed in about 25 ms, DuckDB's fixed cost per
query). ≥ 20× faster than pandas is not a target here (lowest ratios listed).

**Not measured: 100M rows** (this machine's disk, as in the previous run: raw DuckDB's sort of
the 100M-row audit filled 46 GB of spill).
"""
