"""Top-level URLs: pages, the REST API under /api/v1/, the OpenAPI schema and its docs page."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView

from scoring.web import home_views, rules_views

urlpatterns = [
    path("", home_views.home, name="home"),
    path("score/", include("scoring.web.score_urls")),
    path("rules/", rules_views.rules_reference, name="rules"),
    path("games/", include("scoring.web.game_urls")),
    path("api/v1/", include("scoring.api.rules_urls")),
    path("api/v1/", include("scoring.api.game_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularRedocView.as_view(url_name="api-schema"), name="api-docs"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
]

handler400 = "golfclub.errors.bad_request"
handler404 = "golfclub.errors.not_found"
handler500 = "golfclub.errors.server_error"
