from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    """Rules engine (scoring.rules, pure Python) and table scoring: games, holes, entries."""

    name = "scoring"
    verbose_name = _("Scoring")
