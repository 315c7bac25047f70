"""Every size and count limit of `scoring`, defined once: forms, serializers, services and engine import them.

Pure Python, no Django import, so that the rules engine (`scoring/rules/`, pure Python too) can
import it as well. `tests/test_limits.py` fails when one of these names is assigned anywhere else
in the `scoring` package, and checks that the pages, the API and the services answer alike at each
boundary.

Where two parts of the app allow different amounts, both limits are named here with the reason:
the stateless calculator (`/score/`, `/api/v1/score/`, `/api/v1/score-hole/`) scores grids for
anyone, whereas a live game is a table of people whose names are stored. Rate limits (requests
per minute) are not sizes: they live in `golfclub/core/rate_limits.py` and the settings.
"""

from __future__ import annotations

__all__ = [
    "BIGINT_MAX",
    "CALCULATOR_API_MAX_BLOCKS_MARKED",
    "CALCULATOR_API_MAX_PLAYERS",
    "CALCULATOR_PAGE_MAX_PLAYERS",
    "GAME_API_MAX_BLOCKS_MARKED",
    "GAME_PAGE_MAX_BLOCKS_MARKED",
    "INT_MAX",
    "KEY_MAX_LENGTH",
    "MAX_ACTOR_LENGTH",
    "MAX_API_URL_LENGTH",
    "MAX_CLUB_MEMBERS",
    "MAX_CLUB_NAME_LENGTH",
    "MAX_DECKS",
    "MAX_DIGITS",
    "MAX_FORM_KEY",
    "MAX_HOLES",
    "MAX_IDEMPOTENCY_KEY",
    "MAX_NAME_LENGTH",
    "MAX_PASTED_MEMBERS",
    "MAX_PHONE_PENDING",
    "MAX_PLAYERS",
    "MAX_REASON_LENGTH",
    "MAX_RULES_SEARCH",
    "MAX_SEASON_NAME_LENGTH",
    "MAX_TITLE_LENGTH",
    "MAX_TURNS_PER_HOLE",
    "MAX_TURN_MILLISECONDS",
    "MAX_TURN_TIME_HOLES",
    "MIN_ANONYMOUS_IDEMPOTENCY_KEY",
    "MIN_PLAYERS",
    "RANGE_SEARCH_LIMIT",
    "RANGE_SEARCH_SECONDS",
    "SMALL_INT_MAX",
    "TOTAL_LIMIT",
    "VALUE_LIMIT",
]

# --- Players and their names --------------------------------------------------------------------

#: Characters in a player's name once cleaned (`golfclub.core.names.clean_name`): live games (pages,
#: API, services, the model column) and the calculator page's name boxes alike.
MAX_NAME_LENGTH = 40
#: The stored comparison key of a clean name (`name_key`): casefold expands a character to three at
#: most ("ΐ"), and NFKC of an already NFKC text composes rather than expands; 200 leaves room.
KEY_MAX_LENGTH = 200

#: Players at a live game's table, and at the calculator's hole mode (a hole needs someone to beat).
MIN_PLAYERS = 2
#: Players at a live game's table (pages, API, services): up to three packs with `decks: "auto"`.
MAX_PLAYERS = 12
#: Grids on the calculator page's hole mode. Smaller on purpose: every grid and its keypad is on
#: one phone screen and the whole hole travels in the page's query string (the page is stateless).
CALCULATOR_PAGE_MAX_PLAYERS = 8
#: Grids in one `/api/v1/score-hole/` request, and its `players` count. Larger on purpose: a script
#: may score any table, and with `decks: "auto"` (one pack per 4 players) 32 players need the most
#: packs a ruleset allows (`MAX_DECKS`), so every pack count can be checked.
CALCULATOR_API_MAX_PLAYERS = 32

# --- Games ----------------------------------------------------------------------------------------

#: Characters in a game's title (model column, start page, settings page, API).
MAX_TITLE_LENGTH = 80
#: Characters kept of who made a change ("Scored by", the API's actor; model columns).
MAX_ACTOR_LENGTH = 80
#: Characters of the reason given for a change a game's manager asks one for (an official's
#: correction of an earlier hole), kept in the game's history.
MAX_REASON_LENGTH = 200
#: Characters the rules reference's search box takes (/rules/official/?q=).
MAX_RULES_SEARCH = 100
#: Holes in one game: far beyond any real match; keeps the renumbering offsets of the services safe.
MAX_HOLES = 500

# --- The turn timer -------------------------------------------------------------------------------

#: Milliseconds one player's clock may hold for one hole (a day: a phone left running is bounded).
MAX_TURN_MILLISECONDS = 86_400_000
#: Turns one player may have in one hole (far beyond a real hole; bounds a phone's report).
MAX_TURNS_PER_HOLE = 10_000
#: Holes in one report of a phone's turn times (PUT /api/v1/games/{token}/turn-times/).
MAX_TURN_TIME_HOLES = 100

# --- Clubs ------------------------------------------------------------------------------------------

#: Characters in a club's name.
MAX_CLUB_NAME_LENGTH = 80
#: Characters in a season's name.
MAX_SEASON_NAME_LENGTH = 80
#: Members of one club: far beyond a real club; bounds the leaderboard and the pasted list.
MAX_CLUB_MEMBERS = 2000
#: Names in one pasted list of new members.
MAX_PASTED_MEMBERS = 500

# --- A hole's numbers -----------------------------------------------------------------------------

#: A typed hole total runs from -TOTAL_LIMIT to TOTAL_LIMIT (ten cards of at most 100 points each):
#: the engine, the hole page, the live-game API and the calculator API.
TOTAL_LIMIT = 1000
#: Four-of-a-kind blocks marked by hand with a typed total. Each entry point bounds only the shape
#: of the number and the engine then names the real limit of the ruleset (a 2-row grid holds
#: cols / 2 blocks), so the three differ on purpose: the hole page's box takes a digit up to 4, the
#: live-game API lets the engine answer for any plausible number, and the calculator API checks
#: its whole JSON shape up front against the largest grid (2 rows of at most 5 columns: 2 blocks).
GAME_PAGE_MAX_BLOCKS_MARKED = 4
GAME_API_MAX_BLOCKS_MARKED = 99
CALCULATOR_API_MAX_BLOCKS_MARKED = 2

# --- Rulesets (checked by the engine, `scoring/rules/ruleset.py`) ---------------------------------

#: Packs shuffled together.
MAX_DECKS = 8
#: A card value, a house-rule bonus and a fixed ender penalty run from -VALUE_LIMIT to VALUE_LIMIT.
VALUE_LIMIT = 100

#: Steps (partial and full grids) the search for a ruleset's lowest and highest grid score
#: (`scoring/rules/score_range.py`) takes before it settles for a sound per-cell bound: about a
#: second, once per ruleset and pack count. Every preset finishes well within it.
RANGE_SEARCH_LIMIT = 60_000
#: Seconds the searches for a house ruleset's lowest and highest grid score may each take before
#: the sound per-cell bound stands in (presets are exempt: they always finish exactly, in 1-41 ms).
#: Without it new house rules sent to the open calculator API cost 4-7 s of CPU each (issue 31 review).
RANGE_SEARCH_SECONDS = 0.2

# --- Typed numbers and storage (`golfclub/core/inputs.py`) -----------------------------------------------

#: Digits in a typed whole number: far beyond any score, seat, hole or version, far below
#: int()'s 4300-digit limit.
MAX_DIGITS = 12
#: PostgreSQL smallint: hole numbers, seats.
SMALL_INT_MAX = 32767
#: PostgreSQL integer: versions.
INT_MAX = 2**31 - 1
#: PostgreSQL bigint: row ids (a larger id in a backup file is refused before any query).
BIGINT_MAX = 2**63 - 1

#: Characters of an Idempotency-Key an anonymous client sends where its keys are kept by its address
#: only (starting a game with no account and no link, `scoring.api.write_once`): there the key is
#: the only secret between people sharing an address (a venue's Wi-Fi, carrier NAT, a proxy), so a
#: guessable "1" would replay one's game, edit token and all, to the other. 16 is far beyond
#: guessing for a random key and fits a UUID (36). Keys of a logged-in user or of a link: 1 to 255.
MIN_ANONYMOUS_IDEMPOTENCY_KEY = 16
#: The longest Idempotency-Key header the API takes, as the one idempotency store's column holds it.
MAX_IDEMPOTENCY_KEY = 255
#: The longest one-time key a page's form sends back (the page makes a 32-character one).
MAX_FORM_KEY = 64

# No address of the API is longer than a few hundred characters (tokens are 32): a longer one is
# refused with a JSON 414 (golfclub.middleware). gunicorn refuses a request line over 4094 bytes
# itself, with its own small HTML 414 (not JSON), before the app sees it.
MAX_API_URL_LENGTH = 2048

#: The largest `X-Golf-Pending` taken (the writes a table's phone says it still holds,
#: `scoring.phone_contact`); a larger value, or anything but digits, is ignored.
MAX_PHONE_PENDING = 9999
