"""`{% one_time_key %}`: the hidden one-time key of a form that writes (`scoring.form_once`),
new at each render, so that a double tap or a resend of that form writes once."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from scoring.form_once import FIELD, new_key

register = template.Library()


@register.simple_tag
def one_time_key() -> SafeString:
    """`<input type="hidden" name="idempotency_key" value="...">` with a fresh key."""
    return format_html('<input type="hidden" name="{}" value="{}">', FIELD, new_key())
