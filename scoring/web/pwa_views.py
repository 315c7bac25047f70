"""The installable app: the web app manifest, the service worker at the site root, and the page a
phone shows for an address it never stored while it has no connection.

/manifest.webmanifest  name, icons, start URL, standalone display, theme colours (translated).
/sw.js                 the service worker (source: templates/pwa/sw.js), served from the site root
                       so that its scope is the whole site, preceded by its configuration: the
                       static URLs to store at install (scoring/web/pwa_files.py) and their version.
/no-connection/        "You are offline", stored at install in the visitor's language.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.utils.translation import get_language, get_language_bidi
from django.utils.translation import gettext as _
from django.views.decorators.http import condition, require_GET

from scoring.web.pwa_files import precache, template_folder

#: The colours of static/css/app.css (light scheme): --accent is the theme, --bg the background.
THEME_COLOR = "#0b6e4f"
BACKGROUND_COLOR = "#ffffff"
#: The offline app's shell page (`/offline/`, scoring/web/offline_views.py): shown for a game or table
#: address never stored on the phone; stored at install only if it answers 200.
OFFLINE_SHELL_URL = "/offline/"
NO_CONNECTION_URL = "/no-connection/"
#: Pages stored at install (when they answer 200), so that one visit to any page is enough for
#: them to open with no connection: home, "Start a live game", the calculator, the rules.
START_PAGES = ("/", "/games/new/", "/score/", "/rules/", "/rules/official/")


def manifest_data() -> dict[str, Any]:
    """The manifest's members, in the current language."""
    icons = [
        {
            "src": static(f"icons/{prefix}{size}.png"),
            "sizes": f"{size}x{size}",
            "type": "image/png",
            "purpose": purpose,
        }
        for prefix, purpose in (("icon-", "any"), ("icon-maskable-", "maskable"))
        for size in (192, 512)
    ]
    return {
        "id": "/",
        "name": _("Golf club"),
        "short_name": _("Golf club"),
        "description": _(
            "Score Golf, the card game, at the table: live games and tournaments, even offline."
        ),
        "lang": get_language() or settings.LANGUAGE_CODE,
        "dir": "rtl" if get_language_bidi() else "ltr",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_COLOR,
        "categories": ["games", "sports"],
        "icons": icons,
    }


@require_GET
def web_manifest(request: HttpRequest) -> HttpResponse:
    """/manifest.webmanifest, as `application/manifest+json`, kept an hour by the browser."""
    response = JsonResponse(manifest_data(), content_type="application/manifest+json")
    response["Cache-Control"] = "public, max-age=3600"
    return response


def static_url_prefix() -> str:
    """Where static files are served from, as an absolute path or URL ("static/" -> "/static/")."""
    prefix = settings.STATIC_URL
    return prefix if "://" in prefix or prefix.startswith("/") else "/" + prefix


def service_worker_config() -> dict[str, Any]:
    """What the service worker is told by the server: the version, what to store, where things are."""
    listed = precache()
    return {
        "version": listed.version,
        "precache": list(listed.urls),
        "syncScripts": list(listed.sync_scripts),
        "startPages": list(START_PAGES),
        "shell": OFFLINE_SHELL_URL,
        "notice": NO_CONNECTION_URL,
        "staticUrl": static_url_prefix(),
    }


def _service_worker_etag(request: HttpRequest) -> str:
    """The version and the source's size and time: a phone's update check is a 304 until one changes."""
    source = (template_folder() / "pwa" / "sw.js").stat()
    return f"{precache().version}-{source.st_size}-{source.st_mtime_ns}"


@require_GET
@condition(etag_func=_service_worker_etag)
def service_worker(request: HttpRequest) -> HttpResponse:
    """/sw.js: the configuration, then templates/pwa/sw.js.

    `Cache-Control: no-cache`: a phone asks again (a 304 while nothing changed) whenever it checks
    for an update, so a new version reaches it on its next page with a connection.
    """
    config = json.dumps(service_worker_config(), separators=(",", ":"))
    source = (template_folder() / "pwa" / "sw.js").read_text(encoding="utf-8")
    body = f"self.GOLF_SW_CONFIG = {config};\n{source}"
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def no_connection(request: HttpRequest) -> HttpResponse:
    """The "You are offline" page the service worker shows for a page the phone never stored."""
    response = render(request, "pwa/no_connection.html", {"shell_url": OFFLINE_SHELL_URL})
    response["Cache-Control"] = "no-cache"
    return response
