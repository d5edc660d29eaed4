"""Issue #16.6: the README's kinds table, join_key, form and exit codes are generated from the
code (judgescope/docs.py) and kept equal to it."""

from dataclasses import replace

from judgescope import docs, schema


def test_readme_block_equals_the_generated_one():
    text = docs.README.read_text(encoding="utf-8")
    assert text.count(docs.START) == 1 and text.count(docs.END) == 1
    current = docs.START + text.split(docs.START, 1)[1].split(docs.END, 1)[0] + docs.END
    assert current == docs.block(), "run `python -m judgescope.docs` to regenerate README.md"


def test_every_kind_and_column_is_listed():
    table = docs.kinds_table()
    for kind, s in schema.SCHEMAS.items():
        row = next(line for line in table.splitlines() if line.startswith(f"| `{kind}` |"))
        for column in s.columns:
            assert f"`{column.name}`" in row, (kind, column.name)


def test_a_schema_change_changes_the_table(monkeypatch):
    before = docs.kinds_table()
    audit = schema.SCHEMAS["judge_audit"]
    changed = replace(audit, columns=audit.columns + (schema.Column("new_column"),))
    monkeypatch.setitem(schema.SCHEMAS, "judge_audit", changed)
    assert docs.kinds_table() != before and "`new_column`" in docs.kinds_table()


def test_exit_codes_are_all_documented():
    from judgescope import cli
    assert set(docs.EXIT_MEANINGS) == {cli.EXIT_OK, cli.EXIT_PROBLEMS, cli.EXIT_UNUSABLE, cli.EXIT_FAILED,
                                       cli.EXIT_READER_GONE}
