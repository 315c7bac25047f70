"""Reading a player list from CSV (`name[,club][,rating]`): pure, all lines checked before any is used.

The first line is the header; it names the columns (`name` is required, `club` and `rating` are
optional, in any order). Every bad line is named by its number in the file ("line 7") with what
is wrong, so the director can fix them all at once; the caller imports nothing when any line is
bad. Blank lines are skipped. A name already in the tournament, or twice in the file, is a bad
line (names are compared accents and case aside, as "find my table" reads them:
`golfclub.core.names.search_key`).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from golfclub.core.limits import MAX_NAME_LENGTH
from golfclub.core.names import InvalidName, clean_name, search_key, too_long_message
from scoring.rules.errors import Problem
from tournaments.limits import MAX_CLUB, MAX_CSV_LINES, MAX_RATING

COLUMNS = ("name", "club", "rating")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True, slots=True)
class PlayerLine:
    """One good line: the player to create."""

    line: int
    name: str
    club: str
    rating: int | None


def parse_players_csv(text: str, *, taken: Collection[str] = ()) -> tuple[list[PlayerLine], list[Problem]]:
    """The players of `text` and the problems of its bad lines (`where` = "line N", 1-based).

    `taken` holds the `search_key`s of the names already in the tournament (a mapping from key to
    name lets the message say which player a line reads as). When the problems are not empty the
    caller must create nothing.
    """
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        return [], [
            Problem(
                f"line {line}",
                _("This line contains a NUL byte (an invisible character): save the file as plain CSV text."),
            )
        ]
    lines = source_lines(text)
    if not any(line.strip() for line in lines):
        return [], [
            Problem("file", _("The file is empty: the first line names the columns, e.g. name,club,rating."))
        ]
    if len(lines) > MAX_CSV_LINES + 1:
        return [], [
            Problem("file", _("At most %(n)s players can be imported at once.") % {"n": MAX_CSV_LINES})
        ]
    # strict: a quote never closed is an error rather than a name running to the end of the file.
    reader = csv.reader(io.StringIO("\n".join(lines)), strict=True)
    try:
        header = [cell.strip().lower() for cell in next(reader)]
    except (csv.Error, StopIteration):
        return [], [Problem("line 1", _("The first line must name the columns: name[,club][,rating]."))]
    if reader.line_num > 1:
        return [], [Problem("line 1", _unclosed_quote(1))]
    problems = _header_problems(header)
    if problems:
        return [], problems
    players: list[PlayerLine] = []
    seen = {key: 0 for key in taken}
    names = dict(taken) if isinstance(taken, Mapping) else {}
    for number, cells in _numbered_rows(reader, problems):
        if not any(cell.strip() for cell in cells):
            continue
        player = _player_line(
            number, dict(zip(header, cells, strict=False)), len(cells) > len(header), seen, names, problems
        )
        if player is not None:
            players.append(player)
    return players, problems


def source_lines(text: str) -> list[str]:
    """The lines of `text` as a text editor numbers them (line N is item N - 1), a byte order mark
    and the last line break aside."""
    # Lines end where a text editor ends them (\n, \r\n or \r), so "line 7" is the editor's line 7:
    # str.splitlines() would also split on form feeds and Unicode separators inside a name.
    lines = _LINE_BREAK.split(text.removeprefix("\ufeff"))
    if lines and lines[-1] == "":
        lines.pop()
    return lines


@dataclass(frozen=True, slots=True)
class ShownProblem:
    """A problem as the players page lists it: with the text of the line it names, if any."""

    where: str
    message: str
    line_text: str | None


def with_line_texts(text: str | bytes, problems: Iterable[Problem], *, limit: int = 60) -> list[ShownProblem]:
    """`problems` of an import of `text`, each naming "line N" with that line's text beside it, so
    the director sees which line is meant without opening the file. For display only: invisible
    characters are shown as symbols and a line longer than `limit` is cut with an ellipsis."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    lines = source_lines(text)
    shown = []
    for problem in problems:
        number = _line_number(problem.where)
        line = lines[number - 1] if number is not None and 0 < number <= len(lines) else None
        shown.append(
            ShownProblem(problem.where, problem.message, None if line is None else _shown(line, limit))
        )
    return shown


def _line_number(where: str) -> int | None:
    match = re.fullmatch(r"line (\d{1,9})", where)
    return int(match.group(1)) if match else None


def _shown(line: str, limit: int) -> str:
    """`line` with its control characters made visible (NUL as ␀, a tab as ␉) and cut at `limit`."""
    visible = "".join(chr(0x2400 + ord(c)) if ord(c) < 0x20 else "\u2421" if c == "\x7f" else c for c in line)
    return visible if len(visible) <= limit else visible[: limit - 1].rstrip() + "\u2026"


def _header_problems(header: list[str]) -> list[Problem]:
    unknown = [column for column in header if column not in COLUMNS]
    if "name" not in header or unknown or len(set(header)) != len(header):
        return [
            Problem(
                "line 1",
                _(
                    "The first line must name the columns: name, and optionally club and rating "
                    "(found: %(found)s)."
                )
                % {"found": ",".join(header)[:80]},
            )
        ]
    return []


def _unclosed_quote(line: int) -> str:
    return _(
        'A quote (") opened on line %(line)s is not closed on that line: a player is one line, so '
        "close the quote or remove it."
    ) % {"line": line}


def _numbered_rows(reader: Any, problems: list[Problem]) -> Iterator[tuple[int, list[str]]]:
    """(line number, cells) for each data row on one line; a row the csv module cannot read, or a
    quoted cell running over several lines, becomes a problem naming the line it starts on.

    A player is one line: a quote left open (`"Ann,X` then `Bob,Y`) would otherwise make one
    player of the lines after it, and a line break inside a quoted name is never meant.
    """
    while True:
        start = reader.line_num + 1
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            if reader.line_num > start or "end of data" in str(error):
                message = _unclosed_quote(start)
            elif "expected after" in str(error):
                message = _(
                    'Text follows a closing quote ("). A quote inside a quoted name is written twice: '
                    '"Ann ""Ace"" Lee".'
                )
            else:
                message = _("This line is not valid CSV: %(e)s.") % {"e": error}
            problems.append(Problem(f"line {start}", message))
            continue
        if reader.line_num > start:
            problems.append(Problem(f"line {start}", _unclosed_quote(start)))
            continue
        yield start, cells


def _player_line(
    number: int,
    row: dict[str, str],
    extra_cells: bool,
    seen: dict[str, int],
    names: Mapping[str, str],
    problems: list[Problem],
) -> PlayerLine | None:
    where = f"line {number}"
    before = len(problems)
    if extra_cells:
        message = _(
            "This line has more cells than the first line has columns: a comma inside a name or a "
            'club needs the cell in quotes ("Lee, Ann").'
        )
        problems.append(Problem(where, message))
    name = ""
    try:
        name = clean_name(row.get("name", ""))
    except InvalidName as bad:
        message = (
            _("The name is too long: %(limit)s.")
            % {"limit": too_long_message(MAX_NAME_LENGTH, len(bad.name))}
            if bad.reason == "too_long"
            else _("The name is missing.")
        )
        problems.append(Problem(where, message))
    club = (row.get("club") or "").strip()
    if len(club) > MAX_CLUB:
        problems.append(
            Problem(where, _("The club is too long (%(max)s characters at most).") % {"max": MAX_CLUB})
        )
    rating = _rating(row.get("rating"), where, problems)
    if name:
        key = search_key(name)
        if key in seen:
            problems.append(Problem(where, _duplicate(name, seen[key], names.get(key, name))))
        else:
            seen[key] = number
    if len(problems) > before:
        return None
    return PlayerLine(line=number, name=name, club=club, rating=rating)


def _duplicate(name: str, earlier_line: int, same: str) -> str:
    """The message for a name that reads as an earlier line's, or as a player's already there."""
    if earlier_line:
        return _("%(name)s is already on line %(line)s (accents and capitals aside).") % {
            "name": name,
            "line": earlier_line,
        }
    if same != name:
        return _("%(name)s is already in the tournament as %(same)s (accents and capitals aside).") % {
            "name": name,
            "same": same,
        }
    return _("%(name)s is already in the tournament.") % {"name": name}


def _rating(raw: str | None, where: str, problems: list[Problem]) -> int | None:
    text = (raw or "").strip()
    if not text:
        return None
    # isascii: full-width or Arabic-Indic digits would pass isdigit(); a rating is plain ASCII digits.
    digits = text[1:] if text[:1] in "+-" else text
    if not (digits.isascii() and digits.isdigit()) or int(text) > MAX_RATING or int(text) < -MAX_RATING:
        problems.append(
            Problem(
                where, _("The rating must be a whole number up to %(max)s, or empty.") % {"max": MAX_RATING}
            )
        )
        return None
    return int(text)
