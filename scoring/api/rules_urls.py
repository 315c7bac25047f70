"""API URLs of the rules engine: /api/v1/score/, /api/v1/score-hole/, /api/v1/rulesets/."""

from django.urls import path

from . import rules_views

urlpatterns = [
    path("score/", rules_views.score_grid, name="api-score"),
    path("score-hole/", rules_views.score_hole, name="api-score-hole"),
    path("rulesets/", rules_views.ruleset_list, name="api-rulesets"),
    path("rulesets/<str:name>/", rules_views.ruleset_detail, name="api-ruleset"),
]
