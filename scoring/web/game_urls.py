"""URLs of live games (/games/)."""

urlpatterns: list = []
