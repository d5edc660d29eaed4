"""Themes and SQL console pages (AppTest, demo manifest)."""

from urllib.parse import parse_qs, urlparse

from streamlit.testing.v1 import AppTest

from apptest import open_page

from judgescope.console import sql_console


def _open(page: str, collection: str = "xhotpotqa", **params) -> AppTest:
    return open_page(page, collection, **params)


def test_themes_link_each_term_to_review_filtered_by_it():
    at = _open("pages/themes.py", lang="th", min_count="3", threshold="60")
    (table,) = [d.value for d in at.dataframe if "Term" in d.value.columns]
    assert "latin script" in set(table["Term"]) and (table["Z"] > 0).all()
    assert table["Z"].is_monotonic_decreasing
    link = table.loc[table["Term"] == "latin script", "Open"].iloc[0]
    url = urlparse(link)
    assert url.path == "review"
    params = parse_qs(url.query)
    assert params["lang"] == ["th"] and params["q"] == ["latin script"]
    assert params["collection"] == ["xhotpotqa"] and float(params["max"][0]) < 60
    assert any("Monroe, Colaresi & Quinn 2008" in c.value for c in at.caption)


def test_sql_console_runs_a_select_from_the_url():
    at = _open("pages/sql_console.py", sql="SELECT count(*) AS n FROM audit")
    assert at.text_area(key="sql").value == "SELECT count(*) AS n FROM audit"
    assert int(at.dataframe[0].value["n"].iloc[0]) > 0


def test_sql_console_refuses_and_says_why():
    at = _open("pages/sql_console.py", sql="COPY audit TO '/tmp/judgescope-page-leak.csv'")
    assert "refused" in at.error[0].value and not at.dataframe
    at = _open("pages/sql_console.py", collection="localgate",
               sql="SELECT * FROM read_csv('/etc/passwd')")
    assert "Permission" in at.error[0].value and not at.dataframe


def test_sql_console_can_be_switched_off(monkeypatch):
    monkeypatch.setenv("JUDGESCOPE_SQL", "off")
    at = _open("pages/sql_console.py", sql="SELECT 1")
    assert "switched off" in at.info[0].value and not at.dataframe and not at.text_area


def test_console_export_carries_the_query():
    filters = sql_console.provenance_filters("SELECT 1", truncated=True)
    assert filters["sql"] == "SELECT 1" and filters["truncated"] is True
    assert filters["row_cap"] == sql_console.ROW_CAP
