from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    """Events, seating, standings and officiating. Depends on scoring, never the reverse."""

    name = "tournaments"
    verbose_name = _("Tournaments")
