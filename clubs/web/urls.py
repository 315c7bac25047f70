"""The clubs' pages, under /clubs/."""

from django.urls import path  # noqa: F401 (each part of the pages adds its paths below)

app_name = "clubs"

urlpatterns: list = []
