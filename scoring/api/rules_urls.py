"""API URLs of the rules engine: /api/v1/score/, /api/v1/score-hole/, /api/v1/rulesets/."""

urlpatterns: list = []
