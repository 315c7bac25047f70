"""What the hostile pass's scenarios share: the tally of figures, HTTP clients released together,
and the database checks every scenario ends with (bench/hostile_pass.py)."""

from __future__ import annotations

import json
import threading
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

#: Sent by nginx to the app: the app is served as behind TLS (secure cookies, no redirect).
BEHIND_TLS = {"X-Forwarded-Proto": "https"}


@dataclass
class Violation:
    """One broken promise, with what it takes to see it again."""

    scenario: str
    what: str
    reproduction: str


@dataclass
class Tally:
    """Every figure of the pass: requests by scenario and status, invariants checked, violations."""

    statuses: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))
    invariants: Counter = field(default_factory=Counter)
    violations: list[Violation] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def answered(self, scenario: str, status: int | str) -> None:
        """Count one answer (or a transport error's name) under `scenario`."""
        with self.lock:
            self.statuses[scenario][status] += 1

    def check(self, scenario: str, holds: bool, what: str, reproduction: str = "") -> bool:
        """Count one invariant checked; record a violation when it does not hold."""
        with self.lock:
            self.invariants[scenario] += 1
            if not holds:
                self.violations.append(Violation(scenario, what, reproduction))
        return holds

    def note(self, text: str) -> None:
        """A figure worth reporting that is no violation."""
        with self.lock:
            self.notes.append(text)


class Http:
    """Clients to the app server, each on its own connection, counting every answer in the tally."""

    def __init__(self, base: str, tally: Tally, director_token: str) -> None:
        self.base = base
        self.tally = tally
        self.director = {"Authorization": f"Token {director_token}"}

    def client(self, address: str = "198.51.100.1", **headers: str) -> httpx.Client:
        """A phone: its own connection and address (the rate limits count per address)."""
        return httpx.Client(
            base_url=self.base,
            timeout=60,
            verify=False,
            headers={**BEHIND_TLS, "X-Forwarded-For": address, **headers},
        )

    def send(
        self, client: httpx.Client, scenario: str, method: str, url: str, **kw: Any
    ) -> httpx.Response | None:
        """One request; its status counted; a 500 is a violation on the spot. None: no answer."""
        try:
            response = client.request(method, url, **kw)
        except httpx.HTTPError as error:
            self.tally.answered(scenario, type(error).__name__)
            return None
        self.tally.answered(scenario, response.status_code)
        if response.status_code == 503 and url.startswith("/api/"):
            self.tally.check(
                scenario,
                "Retry-After" in response.headers and bool(where_of(response)),
                f"a 503 without Retry-After or the JSON error shape: {response.text[:200]}",
                f"{method} {url} -> 503 {dict(response.headers)}",
            )
        self.tally.check(
            scenario,
            response.status_code < 500 or response.status_code == 503,
            f"{method} {url} answered {response.status_code}",
            f"{method} {url} body {_short(kw)} -> {response.status_code} {response.text[:300]}",
        )
        return response

    def burst(
        self,
        scenario: str,
        copies: int,
        method: str,
        url: str,
        *,
        address: str,
        director: bool = False,
        **kw: Any,
    ) -> list[httpx.Response | None]:
        """`copies` identical requests, each from its own thread and connection, released at once."""
        barrier = threading.Barrier(copies)
        answers: list[httpx.Response | None] = [None] * copies
        headers = {**(self.director if director else {}), **kw.pop("headers", {})}

        def one(index: int) -> None:
            with self.client(address, **headers) as phone:
                phone.get("/api/v1/rulesets/official/")  # the connection is open before the barrier
                barrier.wait()
                answers[index] = self.send(phone, scenario, method, url, **kw)

        run_threads([lambda n=n: one(n) for n in range(copies)])
        return answers


def run_threads(jobs: list[Callable[[], Any]]) -> None:
    """Run each job in its own thread and wait for all; an exception in one is re-raised."""
    errors: list[BaseException] = []

    def guarded(job: Callable[[], Any]) -> None:
        try:
            job()
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=guarded, args=(job,)) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]


def _short(kw: dict[str, Any]) -> str:
    body = kw.get("json", kw.get("content", ""))
    text = body if isinstance(body, str) else json.dumps(body) if body != "" else ""
    return text[:200] + ("..." if len(text) > 200 else "")


def statuses(answers: list[httpx.Response | None]) -> list[int | None]:
    """The answers' status codes, None for no answer."""
    return [a.status_code if a is not None else None for a in answers]


def where_of(response: httpx.Response | None) -> list[str]:
    """The `where` of each error of an API error body (empty when it is not one)."""
    try:
        body = response.json() if response is not None else {}
    except ValueError:
        return []
    errors = body.get("errors") if isinstance(body, dict) else None
    return [str(e.get("where", "")) for e in errors or [] if isinstance(e, dict)]


def games_consistent(tally: Tally, scenario: str, game_ids: list[int]) -> None:
    """Each game: regular holes numbered 1..n once, one entry per seat in each hole, and each
    seat's stored total and holes played equal to the sums of its entries."""
    from scoring.models import Game, Hole, HoleEntry

    for game in Game.objects.filter(pk__in=game_ids).prefetch_related("seats"):
        numbers = sorted(Hole.objects.filter(game=game, is_playoff=False).values_list("number", flat=True))
        tally.check(
            scenario,
            numbers == list(range(1, len(numbers) + 1)),
            f"game {game.pk}: holes numbered {numbers}, not 1..{len(numbers)} once",
            f"SELECT number FROM scoring_hole WHERE game_id={game.pk}",
        )
        seats = {seat.pk: seat for seat in game.seats.all()}
        entries = HoleEntry.objects.filter(hole__game=game, hole__is_playoff=False)
        per_hole: dict[int, Counter] = defaultdict(Counter)
        sums: dict[int, list[int]] = defaultdict(lambda: [0, 0])
        for hole_id, seat_id, score in entries.values_list("hole_id", "seat_id", "score"):
            per_hole[hole_id][seat_id] += 1
            sums[seat_id][0] += score
            sums[seat_id][1] += 1
        holes = Hole.objects.filter(game=game, is_playoff=False).values_list("pk", flat=True)
        for hole_id in holes:
            tally.check(
                scenario,
                per_hole[hole_id] == Counter(dict.fromkeys(seats, 1)),
                f"game {game.pk} hole id {hole_id}: entries per seat {dict(per_hole[hole_id])}, "
                f"seats {list(seats)}",
                f"SELECT seat_id, count(*) FROM scoring_holeentry WHERE hole_id={hole_id} GROUP BY 1",
            )
        for seat in seats.values():
            stored = (seat.total, seat.holes_played)
            summed = tuple(sums.get(seat.pk, (0, 0)))
            tally.check(
                scenario,
                stored == summed,
                f"game {game.pk} seat {seat.name!r}: stored (total, holes) {stored}, entries sum to {summed}",
                f"SELECT total, holes_played FROM scoring_seat WHERE id={seat.pk}",
            )


def counted_sums(game_ids: list[int]) -> dict[tuple[int, int], int]:
    """Each seat's score in a round in play as the standings count it, recomputed from the entries
    alone: only the holes every player of the round has played (docs/running-a-tournament.md,
    "thru N"); by (game id, seat number)."""
    from scoring.models import HoleEntry, Seat

    rows = list(
        HoleEntry.objects.filter(hole__game_id__in=game_ids, hole__is_playoff=False).values_list(
            "hole__game_id", "seat__seat", "hole__number", "score"
        )
    )
    played: dict[tuple[int, int], int] = dict.fromkeys(
        Seat.objects.filter(game_id__in=game_ids).values_list("game_id", "seat"), 0
    )
    for game, seat, _number, _score in rows:
        played[(game, seat)] += 1
    counted = min(played.values(), default=0)
    sums: dict[tuple[int, int], int] = dict.fromkeys(played, 0)
    for game, seat, number, points in rows:
        if number <= counted:
            sums[(game, seat)] += points
    return sums
