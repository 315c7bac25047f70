"""/accounts/: log in and out, password change, sign-up, the API token page (names are global)."""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.urls import path

from golfclub.core.client_ip import ratelimit_key
from golfclub.core.rate_limits import limited

from . import views

# Sign-up attempts per client address (RATELIMIT_SIGNUP), counted in the shared cache like game creation.
limit_signups = limited("signup", "RATELIMIT_SIGNUP", ratelimit_key)

urlpatterns = [
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password_change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("password_change/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path("signup/", limit_signups(views.signup), name="signup"),
    path("token/", views.api_token, name="api_token"),
]
