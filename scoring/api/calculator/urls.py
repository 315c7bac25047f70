"""API URLs of the rules engine: /api/v1/score/, /api/v1/score-hole/, /api/v1/rulesets/.

The two POST endpoints also answer without the trailing slash: Django cannot redirect a POST
(APPEND_SLASH fails loudly in development and drops the body in production), and a caller who
types `/api/v1/score` means the same thing.
"""

from django.urls import path, re_path

from . import views as rules_views

urlpatterns = [
    path("score/", rules_views.score_grid, name="api-score"),
    path("score-hole/", rules_views.score_hole, name="api-score-hole"),
    re_path(r"^score/?$", rules_views.score_grid),
    re_path(r"^score-hole/?$", rules_views.score_hole),
    path("rulesets/", rules_views.ruleset_list, name="api-rulesets"),
    path("rulesets/<str:name>/", rules_views.ruleset_detail, name="api-ruleset"),
]
