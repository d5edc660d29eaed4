"""Issue 45 item 3: a Hub-layout folder resolved once is read from its memo in the cache on the
next start (no `datasets` import, about 1 s of a cold start), with the same files; any change to
the folder's names or README resolves it again, and a remembered file is confined again."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from judgescope.duck.cache import cache_root
from judgescope.ingest.layout import resolve_local
from judgescope.ingest.manifest import SourceError

ROOT = Path(__file__).resolve().parents[1]


def _folder(root: Path) -> Path:
    for name in ("data/train-00000-of-00001.parquet", "data/test-00000-of-00001.parquet"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        pq.write_table(pa.table({"judge_record_id": ["r1"], "score": [50.0]}), root / name)
    (root / "README.md").write_text(
        "---\nconfigs:\n- config_name: main\n  data_files:\n  - split: train\n    path: data/train-*\n"
        "  - split: test\n    path: data/test-*\n---\n# card\n", encoding="utf-8")
    return root


def _resolve_in_a_new_process(folder: Path) -> tuple[list[str], bool]:
    """(files, whether `datasets` was imported) of resolve_local in a fresh interpreter."""
    script = ("import json, sys\nfrom pathlib import Path\nfrom judgescope.ingest.layout import resolve_local\n"
              f"r = resolve_local(Path({str(folder)!r}), None, 'train')\n"
              "print(json.dumps([[str(f) for f in r.files], 'datasets' in sys.modules]))")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env=dict(os.environ))
    assert done.returncode == 0, done.stderr[-2000:]
    return tuple(json.loads(done.stdout.strip().splitlines()[-1]))


def test_a_folder_resolved_once_is_read_from_its_memo(tmp_path):
    folder = _folder(tmp_path / "audit")
    first, imported = _resolve_in_a_new_process(folder)
    assert imported and first == [str(folder / "data/train-00000-of-00001.parquet")]
    again, imported = _resolve_in_a_new_process(folder)
    assert again == first and not imported


def test_a_new_file_or_a_changed_card_resolves_again(tmp_path):
    folder = _folder(tmp_path / "audit")
    assert len(resolve_local(folder, None, "train").files) == 1
    pq.write_table(pa.table({"judge_record_id": ["r2"], "score": [1.0]}), folder / "data/train-00001-of-00002.parquet")
    assert len(resolve_local(folder, None, "train").files) == 2  # a new name, a new resolution
    card = (folder / "README.md").read_text(encoding="utf-8").replace("path: data/train-*",
                                                                      "path: data/train-00000-*")
    (folder / "README.md").write_text(card, encoding="utf-8")
    assert [f.name for f in resolve_local(folder, None, "train").files] == ["train-00000-of-00001.parquet"]


def test_a_remembered_file_outside_the_folder_is_refused(tmp_path):
    folder = _folder(tmp_path / "audit")
    before = set((cache_root() / "layouts").glob("*.json"))
    resolve_local(folder, None, "train")
    [memo] = set((cache_root() / "layouts").glob("*.json")) - before  # this folder's, written now
    outside = tmp_path / "elsewhere.parquet"
    pq.write_table(pa.table({"judge_record_id": ["x"], "score": [1.0]}), outside)
    memo.write_text(json.dumps([str(outside)]), encoding="utf-8")
    with pytest.raises(SourceError, match="outside the dataset folder"):
        resolve_local(folder, None, "train")
