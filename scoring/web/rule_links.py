"""Where a rule citation leads: `rule_url("2.3")` is `/rules/official/#2.3`, the section of the
official reference explained in the app; a seed or a ruleset's override leads to the presets page.

Used by the score breakdowns (`scoring.web.calculator.breakdown.citation`), the `rule_links` filter
of `{% load golf %}` (explanation lines that say "rule 2.3") and the officials' rulings."""

from __future__ import annotations

import re

from django.urls import reverse
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

from scoring.rules.reference import BY_NUMBER

_CITED = re.compile(r"\brule (\d+(?:\.\d+)?)\b")


def rule_url(key: str) -> str:
    """The page (and anchor) that explains a citation key: "2.3", "seed 001", "ruleset", "project"."""
    if key in BY_NUMBER:
        return f"{reverse('rules-official')}#{key}"
    if key.startswith("seed"):
        return f"{reverse('rules')}#sources"
    return f"{reverse('rules')}#parameters"


def link_rules(text: str) -> SafeString:
    """`text` escaped, with each "rule 2.3" it mentions linked to its section."""

    def link(match: re.Match[str]) -> str:
        number = match.group(1)
        if number not in BY_NUMBER:
            return match.group(0)
        return str(format_html('<a class="cite" href="{}">{}</a>', rule_url(number), match.group(0)))

    return mark_safe(_CITED.sub(link, str(escape(text))))  # the text was escaped first
