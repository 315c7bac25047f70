"""`manage.py score official Q 7 K / Q 7 3`: score one grid from the command line.

Prints the engine's line-by-line breakdown (each line citing its rule) and the total, or with
`--json` the same answer as POST /api/v1/score/. `--set key=value` overrides a ruleset parameter;
the value is read as JSON (`--set values='{"K": -1}'`), and a bare word as text (`--set hole_end=knock`).
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from scoring.rules import RulesError, format_grid, parse_grid, resolve_ruleset, score_grid

ROW_SEPARATOR = "/"


def parse_override(text: str) -> tuple[str, Any]:
    """ "key=value" -> (key, JSON value); a value that is not JSON is taken as text."""
    key, sep, raw = text.partition("=")
    key = key.strip()
    if not sep or not key:
        raise CommandError(
            _('--set takes key=value (for example --set negative_matches=zero); got "%(text)s".')
            % {"text": text}
        )
    try:
        value = json.loads(raw)
    except ValueError:
        value = raw.strip()
    return key, value


def split_rows(tokens: list[str]) -> list[list[str]]:
    """Card tokens with "/" between rows -> a list of rows. "Q 7 K/Q 7 3" and "Q,7,K" are fine too."""
    rows: list[list[str]] = [[]]
    for token in tokens:
        for index, part in enumerate(token.split(ROW_SEPARATOR)):
            if index:
                rows.append([])
            rows[-1].extend(card for card in part.replace(",", " ").split() if card)
    return rows


class Command(BaseCommand):
    """Score one grid under a preset (plus overrides) and print the breakdown."""

    help = _(
        "Score one grid: score PRESET CARD ... / CARD ... (rows separated by /). "
        "Example: score official Q 7 K / Q 7 3"
    )

    def add_arguments(self, parser: CommandParser) -> None:
        """PRESET, the cards, --set, --players and --json."""
        parser.add_argument("preset", help=_('ruleset preset, e.g. "official" (see GET /api/v1/rulesets/)'))
        parser.add_argument("cards", nargs="+", help=_('card tokens, rows top first, separated by "/"'))
        parser.add_argument(
            "--set",
            dest="overrides",
            action="append",
            default=[],
            metavar="KEY=VALUE",
            help=_("override a ruleset parameter; VALUE is JSON (a bare word is text); repeatable"),
        )
        parser.add_argument(
            "--players",
            type=int,
            default=None,
            help=_('players at the table (packs in play with decks "auto")'),
        )
        parser.add_argument("--json", action="store_true", help=_("print the API's JSON answer instead"))

    def handle(self, *args: Any, **options: Any) -> None:
        """Resolve the ruleset, score the grid, print it."""
        spec: dict[str, Any] = {"preset": options["preset"]}
        for text in options["overrides"]:
            key, value = parse_override(text)
            if key == "preset":
                raise CommandError(_("Give the preset as the first argument, not with --set."))
            spec[key] = value
        rows = split_rows(options["cards"])
        if options["players"] is not None and options["players"] < 1:
            raise CommandError(
                _("--players must be 1 or more; got %(players)d.") % {"players": options["players"]}
            )
        try:
            ruleset = resolve_ruleset(spec)
            result = score_grid(rows, ruleset, players=options["players"])
        except RulesError as error:
            raise CommandError(
                "\n".join(f"{problem.where}: {problem.message}" for problem in error.problems)
            ) from error
        if options["json"]:
            answer = {**result.to_dict(), "ruleset": ruleset.to_dict()}
            self.stdout.write(json.dumps(answer, indent=2, ensure_ascii=False))
            return
        self.stdout.write(
            _("Ruleset: %(preset)s (%(source)s)") % {"preset": ruleset.preset, "source": ruleset.source}
        )
        if ruleset.overrides:
            self.stdout.write(_("Overrides: %(names)s") % {"names": ", ".join(ruleset.overrides)})
        for row in format_grid(parse_grid(rows)):
            self.stdout.write("  " + " ".join(f"{token:>3}" for token in row))
        for line in result.explanation:
            self.stdout.write(line)
        self.stdout.write(self.style.SUCCESS(_("Total: %(total)d") % {"total": result.total}))
