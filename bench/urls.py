"""The app's URLs plus /bench/bare/: the minimal view a hole recording is compared against."""

from __future__ import annotations

import json

from django.db import connection, transaction
from django.http import HttpRequest, JsonResponse
from django.urls import path
from django.views.decorators.csrf import csrf_exempt

from golfclub.urls import urlpatterns as app_urlpatterns

BARE_TABLE = "bench_bare_insert"


@csrf_exempt
def bare_insert(request: HttpRequest) -> JsonResponse:
    """Parse the JSON body and insert it as one row: the floor any write endpoint stands on."""
    body = json.loads(request.body)
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO {BARE_TABLE} (body) VALUES (%s) RETURNING id", [json.dumps(body)])
        (row_id,) = cursor.fetchone()
    return JsonResponse({"id": row_id}, status=201)


urlpatterns = [path("bench/bare/", bare_insert), *app_urlpatterns]
