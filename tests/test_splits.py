"""Issue #16.2: a Hub-layout folder's configs, splits and files are those `datasets` resolves
(README `configs:` or its default patterns), confined to the folder; several splits and no
--split is a message listing them, never both splits read as one."""

import json
import os

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from judgescope.cli import main
from judgescope.ingest.layout import resolve_local, split_files
from judgescope.ingest.manifest import SourceError

AUDIT = {"judge_record_id": "r", "target_language": "de", "unit": "segment", "score": 50.0}


def _parquet(path, n, prefix="r"):
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.table({k: [f"{prefix}{i}" if k == "judge_record_id" else v for i in range(n)]
                             for k, v in AUDIT.items()}), path)


def _jsonl(path, n, prefix="r"):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps({**AUDIT, "judge_record_id": f"{prefix}{i}"}) + "\n"
                            for i in range(n)), encoding="utf-8")


def _no_configs(root):
    _parquet(root / "data/train-00000-of-00001.parquet", 4, "a")
    _parquet(root / "data/test-00000-of-00001.parquet", 3, "b")


def _subfolders(root):
    _jsonl(root / "train/part1.jsonl", 2, "a")
    _jsonl(root / "train/part2.jsonl", 2, "c")
    _jsonl(root / "test/all.jsonl", 3, "b")


def _configs(root):
    _no_configs(root)
    _jsonl(root / "other/x.jsonl", 5, "x")
    (root / "README.md").write_text(
        "---\nconfigs:\n- config_name: main\n  default: true\n  data_files:\n"
        "  - split: train\n    path: data/train-*\n  - split: test\n    path: data/test-*\n"
        "- config_name: other\n  data_files: other/*.jsonl\n---\n# card\n", encoding="utf-8")


LAYOUTS = {"no_configs": _no_configs, "subfolders": _subfolders, "configs": _configs}


def _datasets_view(root, config):
    """What `datasets` itself resolves, through load_dataset_builder (offline, local folder)."""
    import datasets

    builder = datasets.load_dataset_builder(str(root), name=None if config == "default" else config)
    return {split: sorted(map(str, files)) for split, files in builder.config.data_files.items()}


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_files_per_split_equal_what_datasets_resolves(tmp_path, monkeypatch, layout):
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_CACHE", str(tmp_path / "hf"))
    root = tmp_path / "repo"
    LAYOUTS[layout](root)
    ours = split_files(root)
    assert ours, layout
    for config, splits in ours.items():
        assert {s: sorted(map(str, f)) for s, f in splits.items()} == _datasets_view(root, config)
    if layout != "configs":
        assert set(ours["default"]) == {"train", "test"}


def test_several_splits_without_split_lists_them(tmp_path, capsys):
    root = tmp_path / "repo"
    _no_configs(root)
    assert main(["validate", str(root)]) == 2
    assert ("several splits of config 'default': test, train; choose one with --split (CLI) or "
            'split = "…" (manifest)') in capsys.readouterr().out
    assert main(["validate", str(root), "--split", "train"]) == 0
    assert "loaded 4 = used 4" in capsys.readouterr().out


def test_default_config_is_taken_and_other_config_by_name(tmp_path, capsys):
    root = tmp_path / "repo"
    _configs(root)
    assert main(["validate", str(root), "--split", "test"]) == 0
    assert "loaded 3 = used 3" in capsys.readouterr().out
    assert main(["validate", str(root), "--config", "other"]) == 0
    assert "loaded 5 = used 5" in capsys.readouterr().out


def test_resolved_files_stay_confined(tmp_path):
    outside = tmp_path / "outside.parquet"
    _parquet(outside, 2)
    root = tmp_path / "repo"
    (root / "data").mkdir(parents=True)
    os.symlink(outside, root / "data/train-00000-of-00001.parquet")
    with pytest.raises(SourceError, match="outside the dataset folder"):
        resolve_local(root, None, None)
    (root / "README.md").write_text("---\nconfigs:\n- config_name: x\n  data_files: ../*.parquet\n---\n",
                                    encoding="utf-8")
    with pytest.raises(SourceError, match="leaves the dataset folder"):
        resolve_local(root, None, None)


def test_configs_are_read_as_the_hub_reads_them(tmp_path):
    root = tmp_path / "repo"
    _no_configs(root)
    (root / "README.md").write_text("---\nconfigs:\n- data_files: data/train-*\n---\n", encoding="utf-8")
    with pytest.raises(SourceError, match="config_name"):
        resolve_local(root, None, None)  # `datasets` requires config_name; so do we
