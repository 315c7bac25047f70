"""URLs of the "Score a grid" page (/score/)."""

urlpatterns: list = []
