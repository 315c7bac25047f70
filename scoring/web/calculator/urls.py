"""URLs of the "Score a grid" page (/score/)."""

from django.urls import path

from . import views as score_views

urlpatterns = [
    path("", score_views.score_page, name="score"),
]
