"""A cache entry is put in place whole: sealed before it is renamed, and an intact entry that
another process (a server's warm-up and `judgescope open` on the same cache, say) put there
first is kept rather than removed from under its readers (duck/cache.publish)."""

from pathlib import Path

from judgescope.duck import cache


def _build(parent: Path, name: str, text: str) -> Path:
    tmp = parent / f".tmp-{name}"
    tmp.mkdir()
    (tmp / "report.json").write_text(text)
    return tmp


def test_a_published_entry_is_sealed_when_it_appears(tmp_path, monkeypatch):
    seen = []
    rename = Path.rename

    def watching(self, target):  # what a reader of the final name could see at that moment
        seen.append(cache.damage(self))
        return rename(self, target)
    monkeypatch.setattr(Path, "rename", watching)
    folder = tmp_path / "entry"
    cache.publish(_build(tmp_path, "a", "{}"), folder)
    assert seen == [None]  # complete and sealed before it had its name
    assert cache.damage(folder) is None


def test_an_intact_entry_put_there_first_is_kept(tmp_path):
    folder = tmp_path / "entry"
    cache.publish(_build(tmp_path, "first", '{"by": "first"}'), folder)
    inode = (folder / "report.json").stat().st_ino
    second = _build(tmp_path, "second", '{"by": "second"}')
    cache.publish(second, folder)  # a second builder of the same entry finishes later
    assert (folder / "report.json").stat().st_ino == inode
    assert (folder / "report.json").read_text() == '{"by": "first"}'
    assert second.exists()  # left for its builder to remove, as its build folder always is


def test_a_damaged_or_unsealed_entry_is_replaced(tmp_path):
    folder = tmp_path / "entry"
    folder.mkdir()
    (folder / "report.json").write_text("half")  # no seal: a build that never completed
    cache.publish(_build(tmp_path, "new", '{"by": "new"}'), folder)
    assert (folder / "report.json").read_text() == '{"by": "new"}'
    assert cache.damage(folder) is None
    (folder / "report.json").write_text('{"by": "edited"}')  # changed after its seal
    cache.publish(_build(tmp_path, "again", '{"by": "again"}'), folder)
    assert (folder / "report.json").read_text() == '{"by": "again"}'
