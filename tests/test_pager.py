"""The Review pager: keyset positions that live in the URL and never cross lists."""

from judgescope.web import pager


def test_first_page_has_no_parameters():
    assert pager.Position(None, 1).to_params("abc") == {}
    assert pager.read({}, "abc") == pager.Position(None, 1)


def test_position_round_trips_through_the_url():
    pos = pager.Position((12.5, "r~7"), 51)  # an id may hold the separator after the first one
    params = pos.to_params("sig1")
    assert params == {"after": "12.5~r~7", "at": "51", "sig": "sig1"}
    assert pager.read(params, "sig1") == pos


def test_a_cursor_made_for_another_list_is_ignored():
    params = pager.Position((12.5, "r7"), 51).to_params(pager.signature("a", {"lang": ["th"]}, False))
    other = pager.signature("b", {"lang": ["th"]}, False)  # another collection
    assert pager.read(params, other) == pager.Position(None, 1)
    assert pager.signature("a", {"lang": ["th"]}, False) != pager.signature("a", {"lang": ["th"]}, True)


def test_malformed_positions_fall_back_to_the_first_page():
    sig = "s"
    for bad in ({"after": "x~r", "at": "51", "sig": sig}, {"after": "inf~r", "at": "51", "sig": sig},
                {"after": "1.0~", "at": "51", "sig": sig}, {"after": "1.0~r", "at": "²", "sig": sig},
                {"after": "1.0~r", "at": "1", "sig": sig}, {"after": "1.0", "at": "51", "sig": sig}):
        assert pager.read(bad, sig) == pager.Position(None, 1), bad


def test_next_and_previous_pages():
    pos = pager.Position((5.0, "r50"), 51)
    assert pager.next_position(pos, (9.0, "r100"), 50) == pager.Position((9.0, "r100"), 101)
    before = [(5.0 - i / 100, f"b{i}") for i in range(51)]  # nearest first, page_size + 1 rows
    assert pager.previous_position(pos, before, 50) == pager.Position(before[50], 1)
    assert pager.previous_position(pos, before[:50], 50) == pager.Position(None, 1)
