"""An independent oracle for the clubs' ratings tests: places and openskill ratings computed here
straight from the hole scores and the `openskill` package, sharing no code with the app.

Places follow the rules (4.2) for the two chains the tests play: totals (lowest first), then
countback (hole scores sorted from the lowest, the first difference wins), then for the official
chain most holes won; a first place still level goes to sudden death (the first playoff hole with
one lowest score: that player first, the rest share second) or, for the home chain, is shared.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from openskill.models import PlackettLuce

OFFICIAL = ("countback", "most_holes_won", "sudden_death")
HOME = ("countback", "shared")


def holes_won(scores: Mapping[str, Sequence[int]]) -> dict[str, int]:
    """Regular holes where each player had the table's lowest score (a shared low counts for each)."""
    names = list(scores)
    count = dict.fromkeys(names, 0)
    for index in range(len(scores[names[0]])):
        low = min(scores[name][index] for name in names)
        for name in names:
            count[name] += scores[name][index] == low
    return count


def places(
    scores: Mapping[str, Sequence[int]], chain: Sequence[str], playoff: Sequence[Mapping[str, int]] = ()
) -> dict[str, int]:
    """Each player's final place (1 = won; still level: shared)."""
    won = holes_won(scores)

    def key(name: str) -> tuple:
        base: tuple = (sum(scores[name]), tuple(sorted(scores[name])))
        return base + ((-won[name],) if "most_holes_won" in chain else ())

    answer = {name: 1 + sum(key(other) < key(name) for other in scores) for name in scores}
    leaders = [name for name in scores if answer[name] == 1]
    if len(leaders) > 1 and "sudden_death" in chain:
        for hole in playoff:
            low = min(hole[name] for name in leaders)
            lowest = [name for name in leaders if hole[name] == low]
            if len(lowest) == 1:
                for name in leaders:
                    answer[name] = 1 if name == lowest[0] else 2
                break
    return answer


def ratings(games: Sequence[Sequence[tuple[int, int]]]) -> dict[int, list[tuple[float, float, float, float]]]:
    """openskill PlackettLuce (defaults) over `games` in order, each a list of (member id, place) in
    the order rated; a game with fewer than two members rates nobody. Answers, by member, each of
    their games' (mu before, sigma before, mu after, sigma after)."""
    model = PlackettLuce()
    current: dict[int, object] = {}
    history: dict[int, list[tuple[float, float, float, float]]] = {}
    for game in games:
        before = [current.get(member) or model.rating() for member, _place in game]
        if len(game) >= 2:
            after = [team[0] for team in model.rate([[r] for r in before], ranks=[p for _m, p in game])]
        else:
            after = before
        for (member, _place), old, new in zip(game, before, after, strict=True):
            current[member] = new
            history.setdefault(member, []).append((old.mu, old.sigma, new.mu, new.sigma))
    return history
