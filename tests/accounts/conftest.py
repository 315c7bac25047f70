"""Personas of the accounts tests.

- Dana directs the club's tournaments: she has an account, logs in on her phone, and gives her
  seating script an API token.
- Fran plays on Fridays and signs up herself while sign-up is open.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.accounts.helpers import DANA_PASSWORD


@pytest.fixture
def dana(db):
    """Dana, the tournament director, with a password."""
    return get_user_model().objects.create_user("dana", password=DANA_PASSWORD)
