"""The clubs API, under /api/v1/ (SPEC "Clubs API contract")."""

from django.urls import path  # noqa: F401 (each part of the API adds its paths below)

urlpatterns: list = []
