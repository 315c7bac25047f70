"""Top-level URLs: pages, the REST API under /api/v1/, the OpenAPI schema and its docs page."""

from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from django.utils.csp import CSP
from django.views.decorators.csp import csp_override
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView

from scoring.web import home_views, offline_views, pwa_views, reference_views, rules_views

# Redoc (drf-spectacular-sidecar, served from our static files) injects its styles at run time and
# searches in a worker it builds from a blob: this page alone allows inline styles and blob workers.
# Its script still needs the nonce (templates/drf_spectacular/redoc.html).
_REDOC_CSP = {
    **settings.SECURE_CSP,
    "style-src": [CSP.SELF, CSP.UNSAFE_INLINE],
    "worker-src": [CSP.SELF, "blob:"],
    # Nothing from outside: the "API docs by Redocly" badge (a cdn.redoc.ly logo) is hidden by the template.
    "img-src": [CSP.SELF, "data:"],
}
_redoc = csp_override(_REDOC_CSP)(SpectacularRedocView.as_view(url_name="api-schema"))

urlpatterns = [
    path("", home_views.home, name="home"),
    path("favicon.ico", home_views.favicon, name="favicon"),
    path("offline/", offline_views.offline_shell, name="offline"),
    # The installable app: at the root, so that the service worker's scope is the whole site.
    path("manifest.webmanifest", pwa_views.web_manifest, name="web-manifest"),
    path("sw.js", pwa_views.service_worker, name="service-worker"),
    path("no-connection/", pwa_views.no_connection, name="no-connection"),
    path("score/", include("scoring.web.calculator.urls")),
    path("rules/", rules_views.rules_reference, name="rules"),
    path("rules/official/", reference_views.rules_official, name="rules-official"),
    path("games/", include("scoring.web.games.urls")),
    path("tournaments/", include("tournaments.web.urls")),
    path("clubs/", include("clubs.web.urls")),
    path("api/v1/", include("scoring.api.calculator.urls")),
    path("api/v1/", include("scoring.api.games.urls")),
    path("api/v1/", include("tournaments.api.urls")),
    path("api/v1/", include("clubs.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", _redoc, name="api-docs"),
    path("accounts/", include("golfclub.accounts.urls")),
    path("admin/", admin.site.urls),
]

handler400 = "golfclub.core.errors.bad_request"
handler403 = "golfclub.core.errors.permission_denied"
handler404 = "golfclub.core.errors.not_found"
handler500 = "golfclub.core.errors.server_error"
