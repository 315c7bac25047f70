"""The installable app (issue 32, item 1): the web app manifest, the service worker at /sw.js and
its list of files to keep on a phone, the "You are offline" page, and the headers they need."""

from __future__ import annotations

import io
import json
import re
import shutil
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client
from PIL import Image

from scoring import services
from scoring.web import pwa_files

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "static"


def service_worker_config(response) -> dict:
    """The configuration the server puts at the top of /sw.js."""
    first_line = response.content.decode().split("\n", 1)[0]
    found = re.fullmatch(r"self\.GOLF_SW_CONFIG = (\{.*\});", first_line)
    assert found, first_line[:200]
    return json.loads(found.group(1))


def body_of(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


def test_the_manifest_names_the_app_its_icons_and_how_it_opens(client: Client) -> None:
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == "Golf club" and manifest["short_name"] == "Golf club"
    assert manifest["start_url"] == "/" and manifest["scope"] == "/" and manifest["display"] == "standalone"
    assert manifest["lang"] == "en"
    css = (STATIC / "css" / "app.css").read_text()
    assert f"--accent: {manifest['theme_color']}" in css and f"--bg: {manifest['background_color']}" in css
    sizes = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]}
    assert sizes == {("192x192", "any"), ("512x512", "any"), ("192x192", "maskable"), ("512x512", "maskable")}
    for icon in manifest["icons"]:
        answer = client.get(icon["src"])
        assert answer.status_code == 200 and answer["Content-Type"] == "image/png", icon
        image = Image.open(io.BytesIO(body_of(answer)))
        assert f"{image.width}x{image.height}" == icon["sizes"]


def test_every_page_links_the_manifest_the_touch_icon_and_the_registration(client: Client) -> None:
    for path in ("/", "/games/new/", "/score/", "/rules/", "/tournaments/"):
        page = client.get(path).content.decode()
        assert '<link rel="manifest" href="/manifest.webmanifest">' in page, path
        assert 'rel="apple-touch-icon" href="/static/icons/apple-touch-icon.png"' in page, path
        assert '<meta name="theme-color" content="#0b6e4f"' in page, path
        assert '<script src="/static/js/pwa.js" defer></script>' in page, path
        assert "Install Golf club" in page, path  # the offer's text, translated, for pwa.js to show


def test_the_service_worker_is_served_from_the_root_as_javascript_checked_on_every_visit(
    client: Client,
) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    # Asked again whenever the browser checks for an update (a 304 while nothing changed), so a new
    # version reaches phones on their next visit with a connection.
    assert response["Cache-Control"] == "no-cache"
    again = client.get("/sw.js", HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304
    assert client.post("/sw.js").status_code == 405
    assert "golf-sync" in response.content.decode() and "skip-waiting" in response.content.decode()


def test_the_precache_names_the_static_files_by_rule_and_each_answers(client: Client) -> None:
    config = service_worker_config(client.get("/sw.js"))
    urls = config["precache"]
    for needed in ("css/app.css", "css/game.css", "vendor/htmx-2.0.11.min.js", "js/game.js", "js/pwa.js"):
        assert f"/static/{needed}" in urls, needed
    for path in [*STATIC.glob("js/**/*.js"), *STATIC.glob("vendor/*.js"), *STATIC.glob("icons/*.png")]:
        assert "/static/" + path.relative_to(STATIC).as_posix() in urls, path  # nothing left out
    assert not any(url.endswith(("LICENSE", ".ico")) for url in urls)
    assert len(urls) == len(set(urls))
    for url in urls:
        answer = client.get(url)
        assert answer.status_code == 200, url
    assert config["shell"] == "/offline/" and config["notice"] == "/no-connection/"
    assert config["startPages"] == ["/", "/games/new/", "/score/", "/rules/", "/rules/official/"]
    for page in [config["notice"], *config["startPages"]]:
        assert client.get(page).status_code == 200, page


def test_the_service_worker_holds_no_secret_and_no_game_link(client: Client, settings) -> None:
    game = services.create_game(players=["Ann", "Bob"], ruleset="official")
    client.get(f"/games/e/{game.edit_token}/")  # this browser has a game in its session
    client.get("/")  # and a CSRF cookie (the page's forms)
    body = client.get("/sw.js").content.decode()
    assert game.edit_token not in body and game.view_token not in body
    assert settings.SECRET_KEY not in body
    cookies = {name: morsel.value for name, morsel in client.cookies.items()}
    assert cookies.get("sessionid") and cookies.get("csrftoken")  # the visit had both
    assert all(value not in body for value in cookies.values())


def test_a_new_or_changed_file_joins_the_list_and_changes_the_version(settings, tmp_path: Path) -> None:
    copy = tmp_path / "static"
    shutil.copytree(STATIC, copy)
    settings.STATICFILES_DIRS = [copy]
    before = pwa_files.precache()
    (copy / "js" / "offline").mkdir(exist_ok=True)
    (copy / "js" / "offline" / "brand-new.js").write_text("// new\n")
    added = pwa_files.precache()
    assert "/static/js/offline/brand-new.js" in added.urls and added.version != before.version
    (copy / "js" / "offline" / "brand-new.js").write_text("// changed, same name\n")
    changed = pwa_files.precache()
    assert changed.urls == added.urls and changed.version != added.version


def test_the_background_sync_scripts_are_loaded_when_they_exist(settings, tmp_path: Path) -> None:
    copy = tmp_path / "static"
    shutil.copytree(STATIC, copy)
    settings.STATICFILES_DIRS = [copy]
    (copy / "js" / "offline").mkdir(exist_ok=True)
    names = ("sync.js", "sync-resolve.js", "store.js", "sync-http.js", "app.js")
    for name in ("vendor/idb-keyval-6.3.0.min.js", *(f"js/offline/{name}" for name in names)):
        (copy / name).write_text("// stand-in\n")
    # The order sync.js asks for (each script uses the globals of those before it), then the offline
    # app's reading of a hole form (the worker queues a form whose post failed); not the shell's app.js.
    assert pwa_files.precache().sync_scripts == (
        "/static/vendor/idb-keyval-6.3.0.min.js",
        "/static/js/offline/store.js",
        "/static/js/offline/sync-http.js",
        "/static/js/offline/sync-resolve.js",
        "/static/js/offline/sync.js",
        "/static/js/offline/app-model.js",
        "/static/js/offline/app-form.js",
        "/static/js/offline/app-capture.js",
    )


def test_in_production_the_precache_names_the_hashed_urls_the_pages_use(
    client: Client, settings, tmp_path: Path
) -> None:
    settings.STATIC_ROOT = tmp_path / "collected"
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"},
    }
    call_command("collectstatic", "--noinput", verbosity=0)
    config = service_worker_config(client.get("/sw.js"))
    assert "/static/css/app.css" not in config["precache"]
    for url in config["precache"]:
        name = url.removeprefix("/static/")
        assert re.search(r"\.[0-9a-f]{12}\.(css|js|png)$", name), url
        assert (settings.STATIC_ROOT / name).is_file(), url
    home = client.get("/").content.decode()
    for used in re.findall(r'(?:src|href)="(/static/[^"]+)"', home):
        assert used in config["precache"], used  # the home page's files, as the home page names them


def test_the_pages_allow_the_service_worker_and_the_manifest_from_the_site_only(client: Client) -> None:
    policy = client.get("/")["Content-Security-Policy"]
    parts = {part.split()[0]: part.split()[1:] for part in policy.split(";") if part.strip()}
    assert parts["worker-src"] == ["'self'"] and parts["manifest-src"] == ["'self'"]
    assert parts["default-src"] == ["'self'"] and parts["script-src"] == ["'self'"]


def test_the_offline_notice_links_to_what_works_offline(client: Client) -> None:
    response = client.get("/no-connection/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "You are offline" in page
    for link in ('href="/offline/"', 'href="/games/new/"', 'href="/score/"', 'href="/rules/"'):
        assert link in page, link
