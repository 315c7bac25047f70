"""Building events for tests: a director, players, rounds played with chosen scores."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth import get_user_model

from scoring import services as scoring_services
from tournaments import services
from tournaments.models import Round, Table, Tournament

PASSWORD = "pw-12345-long"

ScoreFn = Callable[[int, int, str], int]  # (round, hole, player name) -> score


def user(username: str):
    """A user called `username` (created once)."""
    found = get_user_model().objects.filter(username=username).first()
    return found or get_user_model().objects.create_user(username, password=PASSWORD)


def event(
    players: int = 12, *, rounds: int = 3, holes: int = 2, seating: str = "fewest_repeats", **settings
) -> Tournament:
    """A tournament directed by Dora with `players` players P01.. (short games of `holes` holes)."""
    tournament = services.create_tournament(
        director=user("dora"),
        name="Spring Open",
        ruleset={"preset": "official", "holes": holes},
        rounds=rounds,
        seating=seating,
        seed=42,
        **settings,
    )
    services.import_entrants(tournament, "name\n" + "\n".join(f"P{n:02d}" for n in range(1, players + 1)))
    return tournament


def event_in_play(players: int = 12, **options) -> Tournament:
    """An `event` (the same options) with round 1 seated and published to the tables."""
    tournament = event(players, **options)
    services.seat_next_round(tournament)
    services.publish_round(tournament, 1)
    return tournament


def by_number(name: str) -> int:
    """P07 -> 7."""
    return int(name[1:])


def default_scores(round_number: int, hole: int, name: str) -> int:
    """A deterministic spread of scores: the lower the player's number, the lower the score."""
    return by_number(name) + hole


def play_round(tournament: Tournament, scores: ScoreFn = default_scores, *, confirm: bool = True) -> Round:
    """Seat, publish and play the next round: every table records every hole, a player confirms."""
    round_ = services.seat_next_round(tournament)
    services.publish_round(tournament, round_.number)
    holes = tournament.ruleset["holes"]
    for table in Table.objects.filter(round=round_).select_related("game"):
        names = list(table.game.seats.order_by("seat").values_list("name", flat=True))
        for hole in range(1, holes + 1):
            scoring_services.hole_record(
                table.game,
                entries={name: scores(round_.number, hole, name) for name in names},
                ender=None,
                capabilities={"view", "score"},
            )
        if confirm:
            services.confirm_table(table.game, names[1])
    return round_
