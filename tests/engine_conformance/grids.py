"""Random grids, holes and matches for the phone engine's conformance test. Card alphabets are small
so that matches (and their choices), blocks, wild jokers and deck refusals come often."""

from __future__ import annotations

import random
from typing import Any

from scoring.rules import RANKS, SUITS, Ruleset

NAMES = [
    "ann",
    "bob",
    "cy",
    "dee",
    "Zoë",
    "李雷",
    "O'Neil",
    "Mary Jane",
    "ed",
    "fay",
    "gus",
    "hal",
    "🙂 joy",
    "x",
    "Ann",
    "bo-2",
    "Émile",
    "zed",
    "7",
    "12",
    "__proto__",  # a name the phone must keep as a key like any other
    "constructor",
]
_SPELLINGS = {"10": ["10", "T", "t"], "X": ["X", "x", "JK", "jk", "Jk"]}
_SYMBOLS = "♠♥♦♣♤♡♢♧"
_BAD_TOKENS: list[Any] = [
    "1Z",
    "",
    "  ",
    "XS",
    "JK♠",
    "x♥",
    5,
    None,
    ["Q"],
    "QQ",
    "11",
    "1",
    "Q-",
    "10 H",
    "ZZ",
    True,
    2.5,
    {"Q": 1},
    "♠",
    "Q♠♠",
    "\uff31",  # a full-width Q
]


def token(rng: random.Random, rank: str) -> str:
    """A card of `rank` as typed: any spelling, maybe a suit (letter or symbol), maybe spaces."""
    text = rng.choice(_SPELLINGS.get(rank, [rank, rank, rank.lower()]))
    if rank != "X" and rng.random() < 0.25:
        suit = rng.choice(SUITS)
        text += (
            rng.choice([suit, suit.lower(), _SYMBOLS[SUITS.index(suit)]])
            if rng.random() < 0.9
            else " " + suit
        )
    if rng.random() < 0.04:
        text = f" {text}  "
    return text


def alphabet(rng: random.Random, ruleset: Ruleset, variety: int) -> list[str]:
    """`variety` ranks to draw from: the joker only where the ruleset has jokers (rarely otherwise)."""
    pool = [r for r in RANKS if r != "X"]
    if ruleset.jokers or rng.random() < 0.03:
        pool += ["X", "X"]
    return rng.sample(pool, min(variety, len(pool)))


def random_grid(rng: random.Random, ruleset: Ruleset, variety: int | None = None) -> list[list[str]]:
    """A grid of the ruleset's shape, of tokens."""
    ranks = alphabet(rng, ruleset, variety or rng.choice([1, 2, 2, 3, 3, 3, 4, 4, 5, 6, 8, 13]))
    return [[token(rng, rng.choice(ranks)) for _ in range(ruleset.cols)] for _ in range(ruleset.rows)]


def broken_grid(rng: random.Random, ruleset: Ruleset) -> Any:
    """A grid with something wrong: bad tokens, ragged or missing rows, the wrong shape."""
    grid: Any = random_grid(rng, ruleset)
    roll = rng.random()
    if roll < 0.45:
        for _ in range(rng.randint(1, 3)):
            row = rng.randrange(len(grid))
            grid[row][rng.randrange(len(grid[row]))] = rng.choice(_BAD_TOKENS)
    elif roll < 0.6:
        grid[rng.randrange(len(grid))].pop()
    elif roll < 0.7:
        grid[rng.randrange(len(grid))] = rng.choice(["Q K", 5, None, {"a": 1}])
    elif roll < 0.8:
        grid = rng.choice(["Q", 5, None, [], [[]], [[], []], {"rows": 2}, [["Q"]], [["Q", "K"]] * 4])
    elif roll < 0.9:
        grid = [list(col) for col in zip(*grid, strict=True)]  # transposed: the wrong shape
    else:
        grid.append([token(rng, "Q") for _ in range(ruleset.cols)])
    return grid


def random_scores(rng: random.Random, names: list[str], choices: list[int], missing: float) -> dict[str, int]:
    """One hole's scores: small sets of values, so that ties and shared lows are frequent."""
    scores = {name: rng.choice(choices) for name in names if rng.random() >= missing}
    return scores or {names[0]: rng.choice(choices)}


def random_match(rng: random.Random, ruleset: Ruleset) -> dict[str, Any]:
    """A match's recorded holes: regular ones (up to past the end), then playoff holes among some
    players; the caller adds the ruleset and whether the players ended it early."""
    names = rng.sample(NAMES, rng.choice([1, 2, 2, 3, 3, 4, 5, 6]))
    length = ruleset.holes or rng.randint(1, 12)
    played = rng.choice([0, 1, rng.randint(0, length), length, length, length, length + 1])
    choices = rng.sample(range(-4, 16), rng.choice([1, 2, 3, 3, 4, 6]))
    if ruleset.target_score is not None and rng.random() < 0.5:
        choices.append(ruleset.target_score // 2 + 1)
    missing = rng.choice([0.0, 0.0, 0.0, 0.1])
    holes: list[dict[str, Any]] = [
        {"number": n, "scores": random_scores(rng, names, choices, missing)} for n in range(1, played + 1)
    ]
    if rng.random() < 0.1 and len(holes) > 2:
        holes.pop(rng.randrange(len(holes)))  # a gap in the numbers
    for n in range(1, rng.choice([0, 0, 1, 1, 2, 3]) + 1):
        players = rng.sample(names, rng.randint(1, len(names))) if rng.random() < 0.3 else names
        holes.append({"number": n, "scores": random_scores(rng, players, choices[:2], 0.0), "playoff": True})
    rng.shuffle(holes)
    return {"players": names, "holes": holes, "first_dealer": rng.randrange(len(names))}


def contenders_playoff(rng: random.Random, contenders: list[str], count: int) -> list[dict[str, Any]]:
    """Playoff holes among exactly the tied players (the usual way a sudden death is played)."""
    return [
        {"number": n, "scores": {name: rng.choice([2, 3, 4]) for name in contenders}, "playoff": True}
        for n in range(1, count + 1)
    ]
