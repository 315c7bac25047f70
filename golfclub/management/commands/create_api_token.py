"""manage.py create_api_token <username>: print a new API token for a user, replacing the old one."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from golfclub.accounts.tokens import issue_token


class Command(BaseCommand):
    """Create (or replace) a user's API token and print its key, for a script's Authorization header."""

    help = "Print a new API token for USERNAME (any older token of theirs stops working)."

    def add_arguments(self, parser: CommandParser) -> None:
        """One argument: the username."""
        parser.add_argument("username")

    def handle(self, *args: Any, **options: Any) -> None:
        """Issue the token and print only its key (easy to capture: KEY=$(manage.py create_api_token ann))."""
        username = options["username"]
        user = get_user_model().objects.filter(**{get_user_model().USERNAME_FIELD: username}).first()
        if user is None:
            raise CommandError(_("No user is called %(name)r.") % {"name": username})
        self.stdout.write(issue_token(user).key)
