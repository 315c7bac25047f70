"""The CSV import's problems shown with their line's text (`with_line_texts`): pure, checked with
hypothesis over any file of lines."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tournaments.csv_import import parse_players_csv, with_line_texts

LINE = st.text(st.characters(blacklist_characters="\r\n", blacklist_categories=("Cs",)), max_size=120)


@given(st.lists(LINE, min_size=1, max_size=12), st.integers(10, 80))
def test_each_line_problem_carries_its_own_lines_text_visible_and_cut_only_when_long(
    lines: list[str], limit: int
) -> None:
    text = "name,rating\n" + "\n".join(lines) + "\n"
    _players, problems = parse_players_csv(text)
    shown = with_line_texts(text.encode(), problems, limit=limit)
    assert [(s.where, s.message) for s in shown] == [(p.where, p.message) for p in problems]
    for item in shown:
        if not item.where.startswith("line "):
            assert item.line_text is None
            continue
        source = text.split("\n")[int(item.where.split()[1]) - 1]
        assert item.line_text is not None and len(item.line_text) <= limit
        assert not any(ord(c) < 0x20 or c == "\x7f" for c in item.line_text)  # shown, not hidden
        visible = "".join(
            chr(0x2400 + ord(c)) if ord(c) < 0x20 else "\u2421" if c == "\x7f" else c for c in source
        )
        if len(visible) <= limit:
            assert item.line_text == visible  # whole: no ellipsis added
        else:
            assert item.line_text.endswith("\u2026") and visible.startswith(item.line_text[:-1])


def test_it_names_the_editors_line_whatever_the_line_breaks() -> None:
    text = "\ufeffname,rating\r\nAnn,1\rBob,high\r\n"
    _players, problems = parse_players_csv(text)
    assert [(s.where, s.line_text) for s in with_line_texts(text, problems)] == [("line 3", "Bob,high")]
