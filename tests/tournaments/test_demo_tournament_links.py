"""manage.py load_demo_tournament prints where to log in with the port the server runs on."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def test_its_link_names_the_port_the_server_runs_on(settings) -> None:
    settings.DEBUG = True
    out = StringIO()
    call_command("load_demo_tournament", "--base-url", "http://127.0.0.1:8765", stdout=out)
    assert "at http://127.0.0.1:8765/tournaments/" in out.getvalue()
    again = StringIO()
    call_command("load_demo_tournament", "--base-url", "http://127.0.0.1:8765", stdout=again)
    assert "already there" in again.getvalue() and "http://127.0.0.1:8765/tournaments/" in again.getvalue()
    assert ":8000" not in out.getvalue() + again.getvalue()
