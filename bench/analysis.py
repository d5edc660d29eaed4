"""Why targets are missed and what to change: the analysis written for the committed run.

Kept beside the code so a re-run of `make bench` keeps it in bench/results.md; the figures in
the tables above it are regenerated, these sentences are not — re-read them after a change.
"""

NOTES = """
## How the targets are reached, and what is left

The first 10M run ([results-10M-before-fixes.md](results-10M-before-fixes.md)) missed most
targets by large factors (verification 264 s, worst rows 12 s, a record 1.3 s, builds at 19.9 GB
unbounded). What changed since, by design rather than by tuning:

- **Everything a page reads is built once per file revision and cached on disk**, keyed by the
  files' hashes: clean zstd Parquet (audits sorted by score, 30,720-row groups, so min/max
  statistics act as the low-score index), per-score counts by every facet, the snapshot's text
  digests (hashed in DuckDB at validation), and derived tables built on first open
  (`catalog.derived_views`): the hash-verification join per (audit, snapshot, join key), an
  id → score index, the exact copies with their texts, the model-provenance table, the Compare
  versions joins.
- **Interactions read counts or pruned row groups.** Distributions, Languages and the Review count
  read the counts (thousands of rows); a Review page is bounded by a score cut-off computed from
  the counts, so it reads one or two row groups; a record, a snapshot row or an Integrity list
  fetches rows by bound values, which DuckDB prunes by row group (a join would read them all).
- **Each connection parses Parquet footers once** (`parquet_metadata_cache`, set GLOBAL so every
  cursor has it): a pruned lookup on a 10M-row file otherwise re-reads hundreds of row-group
  statistics per query.
- **Memory is bounded by DuckDB limits**, not by luck: validation 1.5 GB, derived tables 1 GB,
  the collection's store 1.5 GB, all spilling under the cache folder.
- **The count bootstrap** draws each resample as a chain of conditional binomials over the
  distinct scores (exactly a multinomial, i.e. a row resample), vectorised over the 10,000
  resamples, with groups on both cores: its cost depends on the distinct scores, not on n.

The phases below were measured between 06:04 and 06:25 UTC on the same generated data and
cache (`--resume`): the page interactions and the cold starts were re-run last, after the timing
loop began interleaving app, query-only and raw runs and `judgescope.web.serve` began warming its
imports; the other phases did not change in between.

What the figures below do not show, or still cost:

1. **First open of a new revision is not interactive at 10M.** Validation took minutes (see the
   cold build), and the derived tables are built on first open of the collection (the
   verification join alone about a minute, stated under Hash verification). Both happen once
   per file revision, behind a spinner that says so, and every later process reads the cache.
2. **Distributions is the slowest page** (about 150-250 ms at 1M and 10M; at 10,000 rows a
   facet split reaches 300-320 ms at p95, over target): its queries take ~10 ms, the rest is the
   seeded 10,000-resample bootstrap of every group shown, whose cost grows with the number of
   groups and distinct scores, not with rows. Streamlit caches it per process afterwards.
3. **Exports are not interactions**: writing every filtered row (e.g. 250,000 rows of one
   language and unit at 10M) takes seconds; the page prepares it only when asked.
4. **pandas ratios at 10,000 and 1,000,000 rows** are below 20×: pandas answers tiny in-memory
   aggregations in milliseconds. The target is stated at 10M, where they open up.
5. **app ÷ raw on queries of a few milliseconds** moves with noise (a cursor, a result frame);
   the lock and the memory limit are the Store's only other differences from the raw baseline.
"""
