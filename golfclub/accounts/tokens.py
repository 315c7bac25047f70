"""API tokens (DRF's `authtoken`): one per user, created or replaced, revoked, and shown masked.

The key is a bearer secret like a game's edit token: it is shown whole once, when created, and
masked afterwards (its first characters only, enough to tell two keys apart).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from rest_framework.authtoken.models import Token

#: How many leading characters of a key a masked key shows.
SHOWN_CHARACTERS = 4


def issue_token(user: AbstractBaseUser) -> Token:
    """A new token for `user`, replacing (and so invalidating) any older one."""
    with transaction.atomic():
        # Lock the user's row: two simultaneous requests would otherwise both delete the old token
        # and both insert a new one, and the second would break the one-token-per-user constraint.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        Token.objects.filter(user=user).delete()
        return Token.objects.create(user=user)


def revoke_token(user: AbstractBaseUser) -> bool:
    """Delete `user`'s token; whether there was one."""
    deleted, _ = Token.objects.filter(user=user).delete()
    return deleted > 0


def current_token(user: AbstractBaseUser) -> Token | None:
    """`user`'s token, or None."""
    return Token.objects.filter(user=user).first()


def mask_key(key: str) -> str:
    """The key as pages show it after creation: "9944…" (never the whole secret)."""
    return f"{key[:SHOWN_CHARACTERS]}…"
