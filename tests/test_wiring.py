"""Issue #41 item 3: one composition root. The domains declare their derived tables as data,
judgescope/wiring.py hands them to the catalog, and what a catalog builds, or finds damaged and
rebuilds, is that catalog's own."""

import json
from pathlib import Path

from judgescope import wiring
from judgescope.ingest.manifest import load_manifest
from judgescope.sources.catalog import Catalog


def _collection(folder: Path, first_score: int) -> Path:
    """A manifest of one collection `c` holding one small judge audit (its scores from first_score)."""
    folder.mkdir(parents=True)
    rows = [{"judge_record_id": f"r{i}", "target_language": "de", "unit": "segment", "score": first_score + i}
            for i in range(6)]
    (folder / "a.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    manifest = folder / "sources.toml"
    manifest.write_text('[[collection]]\nname = "c"\ndatasets = ["d"]\n[[dataset]]\nname = "d"\n'
                        'kind = "judge_audit"\npath = "a.jsonl"\n', encoding="utf-8")
    return manifest


def test_rebuild_notes_belong_to_the_catalog_that_rebuilt(tmp_path):
    """A damaged derived entry is named by the catalog that rebuilt it, and by no other catalog of
    the process (one process-wide list was copied into every catalog's problems, and made
    `validate` exit 2 in an unrelated test)."""
    damaged_manifest, other_manifest = _collection(tmp_path / "a", 40), _collection(tmp_path / "b", 50)
    (index,) = wiring.catalog(load_manifest(damaged_manifest)).store("c").views["audit_record_index"]
    index.write_bytes(index.read_bytes()[:50])
    damaged = wiring.catalog(load_manifest(damaged_manifest))
    damaged.store("c")
    assert any("damaged" in p and "rebuilt" in p for p in damaged.manifest.problems), damaged.manifest.problems
    assert damaged.rebuilt and index.parent.name in damaged.rebuilt[0]
    other = wiring.catalog(load_manifest(other_manifest))
    other.store("c")
    assert other.manifest.problems == [] and other.rebuilt == []


def test_a_catalog_builds_the_tables_it_is_given(tmp_path):
    """The catalog builds the declarations passed to it, no registry filled at import: none given,
    none built; the root's tuple, each table the collection's datasets can feed."""
    manifest = _collection(tmp_path / "a", 40)
    bare = Catalog(load_manifest(manifest), providers=()).store("c")
    assert not bare.has("audit_record_index") and bare.has("audit_counts")
    full = Catalog(load_manifest(manifest), providers=wiring.TABLES).store("c")
    feedable = [v.name for t in wiring.TABLES if set(t.needs) <= {"audit"} for v in t.views]
    assert feedable and all(full.has(v) for v in feedable)
    # no snapshot, no earlier version
    assert not full.has("hash_verification") and not full.has("audit_version_overlap")


def test_a_catalog_serves_only_the_views_its_tables_declare(tmp_path):
    """A catalog's registry is the data rooms' views and its tables' (no process-wide list): a
    catalog given no tables refuses a derived view's name as it refuses any undeclared name."""
    bare = Catalog(load_manifest(_collection(tmp_path / "a", 40)), providers=())
    assert "audit_counts" in bare.views and "audit_record_index" not in bare.views
    assert "audit_record_index" in wiring.catalog(bare.manifest).views


def test_the_root_gathers_every_domain_table_in_build_order():
    """The exact copies read the hash verification's views, so it is built before them."""
    order = [t.what for t in wiring.TABLES]
    assert len(order) == len(set(order))
    assert order.index("hash verification") < order.index("exact copies")
