"""The official rules reference (seed 000) in the project's own words, by its section numbers.

Pure data, no Django: the rules reference page (`/rules/official/`) draws it, every citation of a
section (a score breakdown's "rule 2.3", a ruling's "4.5") links to its anchor there, and
`scoring.rules.citations` takes its short titles from it. Each section keeps the substance of the
source's ruling (a pair of 2s is -4, an illegal move is corrected only before the next player's
turn begins, the penalties of 6.3...) and says it again in plain words.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Section:
    """A numbered section of the official reference: its number, title and explanation."""

    number: str
    title: str
    text: str

    @property
    def chapter(self) -> str:
        """The chapter a section belongs to: "2" for "2.3"."""
        return self.number.split(".", 1)[0]


CHAPTERS: dict[str, str] = {
    "1": "Equipment and setup",
    "2": "Objective and scoring",
    "3": "Turn structure",
    "4": "Special rules and edge cases",
    "5": "Variants",
    "6": "Tournament rules",
    "7": "Scoring reference table",
    "8": "Common rule disputes",
    "9": "House rules (optional, never in official events)",
    "10": "Frequently asked questions",
}

SECTIONS: tuple[Section, ...] = (
    Section(
        "1.1",
        "Equipment",
        "One standard 52-card pack without jokers (some variants add them) for 2 to 6 "
        "players, something to keep the score with (paper or this app), and room on the table for "
        "each player's grid of cards and the two piles.",
    ),
    Section(
        "1.2",
        "Number of players",
        "Two to six players; three or four play best. Two players make a "
        "quicker, more tactical game; five or six a longer one with a busier discard pile.",
    ),
    Section(
        "1.3",
        "Setting up a hole",
        "The dealer shuffles and the player on the dealer's right cuts (in "
        "tournaments). Six cards go face down to each player, one at a time. Each player lays them out "
        "as a grid of two rows of three and turns exactly two of them face up. The rest of the pack is "
        "the draw pile; its top card, turned up, starts the discard pile. The player with the highest "
        "face-up card starts (on a tie, the first of them clockwise from the dealer); by agreement the "
        "dealer may start instead.",
    ),
    Section(
        "1.4",
        "The grid",
        "Two rows of three cards make three columns, numbered 1 to 3 from the left. "
        "The columns matter: pairs are counted in columns (2.3). Cards stay in their places all hole.",
    ),
    Section(
        "2.1",
        "Objective",
        "The lowest total over the holes wins. A game is usually 9 holes; variants play more or fewer.",
    ),
    Section(
        "2.2",
        "Card values",
        "Ace 1; 2 is minus 2; 3 to 10 their face value; jack and queen 10; king 0. "
        "Suits never change a card's points.",
    ),
    Section(
        "2.3",
        "Vertical pairs",
        "Two cards of the same rank in the same column cancel: that column "
        "scores 0 whatever the cards are worth. A column pair of 2s is the exception: it keeps its "
        "points and scores minus 4. Two equal cards in the same row (a horizontal pair) do not cancel: "
        "they score their values.",
    ),
    Section(
        "2.4",
        "Scoring a hole",
        "At the end of the hole every card is turned face up. Each column scores "
        "0 if it holds a pair (minus 4 for two 2s), otherwise the sum of its two cards. The three "
        "columns together are the player's hole score, added to their total.",
    ),
    Section(
        "2.5",
        "End of the game",
        "After the agreed number of holes (9 as standard) the lowest total "
        "wins. Ties are settled as 4.2 says.",
    ),
    Section(
        "3.1",
        "Order of play",
        "Play goes clockwise from the starting player, each taking one whole turn at a time.",
    ),
    Section(
        "3.2",
        "A turn",
        "Draw one card, either the top of the draw pile or the top discard; once drawn, "
        "the choice stands. A card from the draw pile may be swapped for any grid card or thrown on "
        "the discard pile, and a player who throws it away must turn one of their face-down cards up. "
        "A card taken from the discard pile must be swapped into the grid: it can never be thrown "
        "straight back. The card swapped out goes face up on the discard pile.",
    ),
    Section(
        "3.3",
        "Swapping",
        "Say which grid card is replaced, take it out, put the new card in exactly the "
        "same place, and discard the old one face up (a face-down card is revealed as it goes). Cards "
        "are never moved to another place in the grid.",
    ),
    Section(
        "3.4",
        "Discarding the card drawn",
        "Throwing away the card drawn from the pile costs no points "
        "but some secrecy: the player turns up one of their face-down cards, of their choice. A card "
        "already face up cannot be the one turned.",
    ),
    Section(
        "3.5",
        "End of a hole",
        "When a player has all six cards face up, the hole is ending: every other "
        "player takes one last turn, then all cards are turned up and the hole is scored.",
    ),
    Section(
        "4.1",
        "The draw pile runs out",
        "Keep the top discard aside, shuffle the rest of the discard pile "
        "into a new draw pile, and put the kept card back face up as the discard pile. Play goes on.",
    ),
    Section(
        "4.2",
        "Ties",
        "Tied totals at the end are settled by the method agreed before the game: sudden "
        "death (more holes until one player scores lower than all the others), the lowest single hole "
        "(then the next lowest, and so on: countback), the most holes won (the lowest score of a hole; "
        "a shared lowest counts for each), or a shared victory.",
    ),
    Section(
        "4.3",
        "Disputed memory",
        "Nobody may look at face-down cards to check what a player claims to "
        "remember. A claim that proves wrong when the cards are revealed is a mistake, not cheating, "
        "unless it was a deliberate deception. In tournaments an official settles memory disputes.",
    ),
    Section(
        "4.4",
        "A card revealed by accident",
        "Turn it face down again if possible; everyone who saw it "
        "forgets it. If it cannot be hidden again it stays face up. No penalty, unless it was revealed "
        "on purpose, which is cheating.",
    ),
    Section(
        "4.5",
        "Correcting an illegal move",
        "An illegal move noticed before the next player's turn begins "
        "is corrected. Noticed after that, it stands and play goes on. Repeated illegal moves can cost "
        "penalty points or a disqualification in tournaments (6.3).",
    ),
    Section("5.1", "Classic Golf", "Six cards (2 by 3), nine holes: the standard rules of this reference."),
    Section("5.2", "Quick Golf", "Four cards (2 by 2), six holes; column pairs still cancel."),
    Section("5.3", "Extended Golf", "Six cards, eighteen holes."),
    Section(
        "5.4",
        "Jokers",
        "The pack has two jokers worth minus 2 each, and 2s are worth plus 2; the rest as in Classic Golf.",
    ),
    Section(
        "6.1",
        "Official tournaments",
        "Classic Golf (six cards, nine holes) at tables of four, over "
        "several rounds (typically three to five); the total over all rounds counts, lowest first, "
        "ties settled as 4.2 says.",
    ),
    Section(
        "6.2",
        "Conduct",
        "Silence except for the game's needs; no help from anyone outside the table; "
        "phones and devices silenced and put away; face-up cards visible, face-down cards hidden. The "
        "director may set time limits per hole or per game.",
    ),
    Section(
        "6.3",
        "Penalties",
        "An illegal move: a warning the first time, 5 penalty points the second, "
        "disqualification from the round the third. Cheating: disqualification from the tournament at "
        "once. Unsportsmanlike conduct: a warning, then disqualification. Time: 2 penalty points for "
        "each minute over the limit (a started minute counts).",
    ),
    Section(
        "7",
        "Scoring table",
        "Ace 1, 2 minus 2, 3 to 10 face value, jack 10, queen 10, king 0. A column "
        "pair scores 0 (a pair of kings too); a column pair of 2s scores minus 4; row pairs add up.",
    ),
    Section(
        "8.1",
        "Looking at your own face-down cards",
        "Not allowed until the card is legally revealed. "
        "Looking is cheating: disqualification in tournaments.",
    ),
    Section(
        "8.2",
        "Horizontal pairs",
        "They do not count: only column pairs cancel. Row cards score their values.",
    ),
    Section(
        "8.3",
        "Forgetting to turn a card after discarding",
        "Noticed before the next player's turn: turn "
        "one now. Noticed later: the turn stands. In tournaments it may earn a warning or a penalty.",
    ),
    Section(
        "8.4",
        "Moving cards around the grid",
        "Not allowed: every card keeps its place all hole, and a "
        "swapped-in card takes exactly the place of the one it replaces.",
    ),
    Section(
        "8.5",
        "Two players finish on the same turn",
        "The player whose turn it was when the last card was "
        "turned (the one who acted first) ended the hole.",
    ),
    Section(
        "9",
        "House rules",
        "Groups agree their own variations before a game, for casual play only. "
        "Official tournaments use only the standard rules.",
    ),
    Section(
        "9.1", "House rule: horizontal pairs", "Row pairs score 0 as well as column pairs: an easier game."
    ),
    Section("9.2", "House rule: look once", "Each player may look at their face-down cards once per hole."),
    Section("9.3", "House rule: no flip after a discard", "Throwing away the card drawn costs nothing."),
    Section(
        "9.4",
        "House rule: knocking",
        "A player may knock instead of finishing their grid; everyone else "
        "takes one last turn and the hole ends.",
    ),
    Section(
        "10",
        "Questions",
        "The draw pile runs out: 4.1. A tie: 4.2. Looking at face-down cards: no (8.1). "
        "Horizontal pairs: no (2.3, 8.2). Discarding the card drawn costs a flip, not points (3.4). Two "
        "grid cards cannot trade places (3.3). An accidental reveal: 4.4. Exactly two cards face up at "
        "the start (1.3). A card drawn cannot be put back for the other pile (3.2). The only discard "
        "may be drawn; the next discard starts a new pile.",
    ),
)

BY_NUMBER: dict[str, Section] = {section.number: section for section in SECTIONS}
