"""The admin's page of a keyed write shows that the key was used, not the stored answer: a new game's
answer holds its edit link (and a club's or tournament's, their secret links)."""

from __future__ import annotations

import pytest
from django.test import Client

from scoring.idempotent_request_model import IdempotentRequest

pytestmark = pytest.mark.django_db


def test_the_admin_does_not_show_a_keyed_answers_secret_link(django_user_model) -> None:
    created = Client().post(
        "/api/v1/games/",
        {"players": ["Ann", "Bob"]},
        content_type="application/json",
        headers={"Idempotency-Key": "k" * 40},
    )
    assert created.status_code == 201, created.content
    edit_token = created.json()["edit_token"]
    stored = IdempotentRequest.objects.get(key="k" * 40)
    assert edit_token in str(stored.body)  # kept, for the replay
    staff = Client()
    staff.force_login(django_user_model.objects.create_superuser("support", password="x" * 12))
    page = staff.get(f"/admin/scoring/idempotentrequest/{stored.pk}/change/")
    assert page.status_code == 200
    assert "k" * 40 in page.content.decode()  # the key is shown
    assert edit_token not in page.content.decode()
