"""The sign-up form: a username and a password typed twice, checked by the password validators."""

from __future__ import annotations

from django.contrib.auth.forms import UserCreationForm


class SignupForm(UserCreationForm):
    """Django's user-creation form: the username unique whatever its case (checked again on save by
    the database), the password held to AUTH_PASSWORD_VALIDATORS, its labels and messages translated."""
