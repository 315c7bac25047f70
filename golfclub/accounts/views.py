"""Account pages: log in (django-axes counts the failures), sign up, and the API token page.

Logging out and changing the password are Django's own views (see `urls.py`), with this project's
templates in templates/registration/.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods

from . import tokens
from .forms import LoginForm, SignupForm

# Signing up logs the new user in at once; the axes backend wants credentials, this one does not.
_LOGIN_BACKEND = "django.contrib.auth.backends.ModelBackend"
# Where a key just created waits, in the session, for the one page view that shows it.
_NEW_KEY = "golfclub_new_api_key"


def signup_open() -> bool:
    """Whether anyone may create an account here (GOLFCLUB_SIGNUP_OPEN)."""
    return bool(getattr(settings, "GOLFCLUB_SIGNUP_OPEN", False))


class LoginView(auth_views.LoginView):
    """Django's login page (with `LoginForm`), which also links to sign-up while it is open."""

    authentication_form = LoginForm

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        """Add `signup_open` for the template."""
        context = super().get_context_data(**kwargs)
        context["signup_open"] = signup_open()
        return context


def _safe_next(request: HttpRequest) -> str | None:
    """The `next` page asked for, if it is on this site."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return None


@sensitive_post_parameters("password1", "password2")
@never_cache
@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """GET: the sign-up form; POST: create the account and log in. 403 page while sign-up is closed."""
    if not signup_open():
        return render(request, "registration/signup_closed.html", status=403)
    if request.user.is_authenticated:
        return redirect(settings.LOGIN_REDIRECT_URL)
    form = SignupForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                user = form.save()
        except IntegrityError:
            # Someone took the name between the form's check and the insert.
            form.add_error("username", _("A user with that username already exists."))
        else:
            login(request, user, backend=_LOGIN_BACKEND)
            messages.success(
                request, _("Welcome, %(name)s: your account is ready.") % {"name": user.get_username()}
            )
            return redirect(_safe_next(request) or settings.LOGIN_REDIRECT_URL)
    status = 400 if request.method == "POST" else 200
    return render(
        request, "registration/signup.html", {"form": form, "next": _safe_next(request) or ""}, status=status
    )


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def api_token(request: HttpRequest) -> HttpResponse:
    """The user's API token: whether there is one (masked), create or replace it, revoke it.

    Every POST redirects (a reload must never replace the key just copied). A new key rides in the
    session to the next GET, which shows it whole once and drops it: later views show it masked.
    """
    if request.method == "POST":
        action = request.POST.get("action", "")
        if action == "create":
            request.session[_NEW_KEY] = tokens.issue_token(request.user).key
            return redirect("api_token")
        if action == "revoke":
            request.session.pop(_NEW_KEY, None)
            if tokens.revoke_token(request.user):
                messages.success(
                    request, _("Your API token is revoked: scripts using it are refused from now on.")
                )
            return redirect("api_token")
        messages.error(request, _("Unknown action: use one of the buttons on this page."))
    token = tokens.current_token(request.user)
    new_key = request.session.pop(_NEW_KEY, None) if request.method == "GET" else None
    context = {
        "token": token,
        "masked": tokens.mask_key(token.key) if token else "",
        # Only the key still in force (not one replaced or revoked from another tab since).
        "new_key": new_key if token and new_key == token.key else None,
    }
    return render(
        request, "registration/api_token.html", context, status=400 if request.method == "POST" else 200
    )
