"""Templates: no comment leaks onto a page."""

from __future__ import annotations

from pathlib import Path

TEMPLATES = Path(__file__).resolve().parent.parent.parent / "templates"


def test_it_keeps_every_template_comment_on_one_line():
    # Django's {# ... #} ends at the line's end: a two-line one is printed on the page as text.
    broken = [
        f"{path.relative_to(TEMPLATES)}:{number}"
        for path in TEMPLATES.rglob("*.html")
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if "{#" in line and "#}" not in line[line.index("{#") :]
    ]
    assert broken == [], f"multi-line {{# #}} comments (use {{% comment %}}): {broken}"
