"""API URLs of live games."""

urlpatterns: list = []
