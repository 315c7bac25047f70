"""Cards and grids: the notation players type, parsed into frozen values."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .errors import CardError, GridError, Problem

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "X")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
JOKER = "X"

RANK_NAMES: dict[str, str] = {
    "A": "Ace",
    "2": "2",
    "3": "3",
    "4": "4",
    "5": "5",
    "6": "6",
    "7": "7",
    "8": "8",
    "9": "9",
    "10": "10",
    "J": "Jack",
    "Q": "Queen",
    "K": "King",
    "X": "Joker",
}
SUIT_NAMES: dict[str, str] = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"}

_RANK_ALIASES: dict[str, str] = {rank: rank for rank in RANKS} | {"T": "10", "JK": "X"}
_SUIT_ALIASES: dict[str, str] = {
    "S": "S",
    "H": "H",
    "D": "D",
    "C": "C",
    "♠": "S",
    "♥": "H",
    "♦": "D",
    "♣": "C",
}
_SUIT_SYMBOLS = ("♠", "♥", "♦", "♣", "♤", "♡", "♢", "♧")
_SUIT_ALIASES |= {"♤": "S", "♡": "H", "♢": "D", "♧": "C"}

_HELP = "use A, 2-10 (or T), J, Q, K or X/JK for a joker, optionally followed by a suit S, H, D, C"
# The same for a ruleset without jokers: a player there should not be told about them.
_HELP_NO_JOKERS = "use A, 2-10 (or T), J, Q or K, optionally followed by a suit S, H, D, C"


@dataclass(frozen=True, slots=True)
class Card:
    """A playing card. `rank` is one of RANKS ("X" is the joker); `suit` one of SUITS or None."""

    rank: str
    suit: str | None = None

    def __post_init__(self) -> None:
        if self.rank not in RANKS:
            raise CardError(Problem("card", f'Unknown rank "{self.rank}": {_HELP}.'))
        if self.suit is not None and (self.suit not in SUITS or self.rank == JOKER):
            raise CardError(Problem("card", f'Unknown suit "{self.suit}" for rank "{self.rank}".'))

    @property
    def is_joker(self) -> bool:
        """True for a joker."""
        return self.rank == JOKER

    @property
    def name(self) -> str:
        """A readable name: "Queen of Hearts", "10", "Joker"."""
        rank = RANK_NAMES[self.rank]
        return f"{rank} of {SUIT_NAMES[self.suit]}" if self.suit else rank

    def __str__(self) -> str:
        return self.rank + (self.suit or "")


Grid = tuple[tuple[Card, ...], ...]


def _position_text(where: str) -> str:
    """ "grid[1][3]" -> " at row 1, column 3"; other paths give ""."""
    if where.endswith("]") and where.count("[") >= 2:
        parts = where.split("[")
        try:
            row, col = int(parts[-2].rstrip("]")), int(parts[-1].rstrip("]"))
        except ValueError:
            return ""
        return f" at row {row}, column {col}"
    return ""


# Tokens already parsed: the same few dozen strings are typed over and over. The engine's fast paths
# read these (a token missing here simply takes the checked path through parse_card).
KNOWN_TOKENS: dict[str, Card] = {}
# The same for tokens without a suit: token -> rank.
PLAIN_RANKS: dict[str, str] = {}
_KNOWN_LIMIT = 4096


def _parse_token(text: str) -> Card | None:
    """The card a token names, or None when it names none."""
    token = text.strip().upper()
    if not token:
        return None
    if token in _RANK_ALIASES:
        return Card(_RANK_ALIASES[token])
    rank_text, suit_text = token[:-1].rstrip(), token[-1]
    if suit_text not in _SUIT_ALIASES or rank_text not in _RANK_ALIASES:
        return None
    rank = _RANK_ALIASES[rank_text]
    if rank == JOKER:
        return None
    return Card(rank, _SUIT_ALIASES[suit_text])


def parse_rank(text: str) -> str | None:
    """The rank a rank token names ("q" -> "Q", "T" -> "10", "JK" -> "X"), or None."""
    return _RANK_ALIASES.get(text.strip().upper())


def parse_card(token: str | Card, where: str = "card", jokers: bool = True) -> Card:
    """Parse one card token ("Q", "10h", "T♠", "x", "JK"); raise CardError naming the token and place.

    `jokers` False: the ruleset plays without jokers, so the error's help does not offer them (a joker
    still parses; the ruleset's checks refuse it)."""
    if isinstance(token, Card):
        return token
    if not isinstance(token, str):
        raise CardError(Problem(where, f"Expected a card token{_position_text(where)}, got {token!r}."))
    card = KNOWN_TOKENS.get(token)
    if card is not None:
        return card
    card = _parse_token(token)
    if card is None:
        help_text = _HELP if jokers else _HELP_NO_JOKERS
        shown = token.strip()
        if not shown:
            message = f"Missing card{_position_text(where)}: {help_text}."
        elif shown.upper() in ("XS", "XH", "XD", "XC", "JKS", "JKH", "JKD", "JKC") or (
            shown.upper().startswith(("X", "JK")) and shown[-1] in _SUIT_SYMBOLS
        ):
            message = f'Jokers take no suit: "{shown}"{_position_text(where)} should be "X".'
        else:
            message = f'Unknown card "{shown}"{_position_text(where)}: {help_text}.'
        raise CardError(Problem(where, message))
    if len(KNOWN_TOKENS) < _KNOWN_LIMIT:
        KNOWN_TOKENS[token] = card
        if card.suit is None:
            PLAIN_RANKS[token] = card.rank
    return card


def parse_grid(rows: Sequence[Sequence[str | Card]] | Grid, where: str = "grid", jokers: bool = True) -> Grid:
    """Parse a list of rows of card tokens; check the rows are equal in length. Reports every bad card.

    `jokers` False: messages do not offer jokers (see parse_card)."""
    if isinstance(rows, (str, bytes)) or not isinstance(rows, Sequence):
        raise GridError(Problem(where, "A grid is a list of rows, each a list of cards."))
    if not rows:
        raise GridError(Problem(where, "The grid has no rows."))
    problems: list[Problem] = []
    parsed: list[tuple[Card, ...]] = []
    for r, row in enumerate(rows, start=1):
        if isinstance(row, (str, bytes)) or not isinstance(row, Sequence):
            problems.append(Problem(f"{where}[{r}]", f"Row {r} is not a list of cards."))
            continue
        cards: list[Card] = []
        for c, token in enumerate(row, start=1):
            # A card, or a token read before, as parse_card would answer it, without first writing
            # out its place (the engine parses every grid of every hole it scores).
            card = token if type(token) is Card else KNOWN_TOKENS.get(token) if type(token) is str else None
            if card is not None:
                cards.append(card)
                continue
            try:
                cards.append(parse_card(token, f"{where}[{r}][{c}]", jokers))
            except CardError as error:
                problems.extend(error.problems)
        parsed.append(tuple(cards))
    lengths = [
        (r, len(row))
        for r, row in enumerate(rows, start=1)
        if isinstance(row, Sequence) and not isinstance(row, (str, bytes))
    ]
    shape_problem = None
    if len({n for _, n in lengths}) > 1:
        shape_problem = Problem(
            where,
            "All rows must have the same number of cards; got "
            + ", ".join(f"row {r}: {n}" for r, n in lengths)
            + ".",
        )
    elif lengths and lengths[0][1] == 0:
        shape_problem = Problem(where, "The grid's rows are empty.")
    if shape_problem is not None or (problems and problems[0].where.count("[") == 1):
        raise GridError(([shape_problem] if shape_problem else []) + problems)
    if problems:
        raise CardError(problems)
    return tuple(parsed)


def format_grid(grid: Grid) -> list[list[str]]:
    """The grid as lists of canonical tokens (the inverse of parse_grid)."""
    return [[str(card) for card in row] for row in grid]


def _learn_common_tokens() -> None:
    """Parse every usual spelling once at import, so that the fast paths know them from the start."""
    ranks = [*RANKS, "T", "JK"]
    for rank in ranks:
        for text in {rank, rank.lower()}:
            parse_card(text)
            if rank not in ("X", "JK"):
                for suit in SUITS:
                    parse_card(text + suit)
                    parse_card(text + suit.lower())


_learn_common_tokens()
