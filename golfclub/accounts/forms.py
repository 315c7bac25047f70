"""Account forms: the login form (usernames held to their real length) and the sign-up form."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.core.validators import MaxLengthValidator


class LoginForm(AuthenticationForm):
    """Django's login form, refusing a username longer than the model allows before authenticating.

    Django sets the field's `max_length` after building it, so the length is never checked: a
    10,000-character username reached `authenticate()`, and django-axes failed (a 500) writing it
    into its 255-character log column.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        username = self.fields["username"]
        username.validators.append(MaxLengthValidator(username.max_length))


class SignupForm(UserCreationForm):
    """Django's user-creation form: the username unique whatever its case (checked again on save by
    the database), the password held to AUTH_PASSWORD_VALIDATORS, its labels and messages translated."""
