"""Numbers as people read them: a negative number with a true minus sign (U+2212), never a hyphen.

Only for text shown to people; API JSON, CSV, form values and input fields keep the ASCII hyphen.
"""

from __future__ import annotations

from typing import Any

from django import template

from scoring.web.numbers import minus_sign, signed_points

register = template.Library()


@register.filter
def minus(value: Any) -> str:
    """-4 → "\u22124"; anything that is not a number is shown as it is."""
    return minus_sign(value)


@register.filter
def signed(value: Any) -> str:
    """Points of an adjustment: "+10", "\u22122", "0"."""
    return signed_points(value)


@register.filter
def rule_links(value: Any) -> str:
    """An explanation line with each "rule 2.3" linked to its section of the rules reference."""
    from scoring.web.rule_links import link_rules

    return link_rules(str(value))
