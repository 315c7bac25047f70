"""The rulings catalogue: the disputes the official reference answers, as data (one place).

Each situation names the sections it rests on, the facts that decide it (asked as yes/no or number
questions) and its outcomes: the first outcome whose `when` matches the facts is the answer. An
outcome says the ruling in plain words, the correction to make at the table, the offence of rule
6.3 it is (if any) and the sections cited. The ids and fact names of the SPEC's "Rulings API
contract" are kept exactly; situations after those are answered by the reference too.

Sections are those of the official reference (seed 000): 1.3 setup, 2.3 pairs, 3.2-3.5 the turn,
4.1 deck exhaustion, 4.3 memory, 4.4 reveals, 4.5 corrections, 6.2 conduct, 6.3 penalties, 8.1-8.5
common disputes, 9 house rules, 10 questions.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from tournaments.models import Offence
from tournaments.officiating.situations import Fact, Outcome, Situation

__all__ = ["BY_ID", "SITUATIONS", "Fact", "Outcome", "Situation"]

_BEFORE = _(
    "This is an illegal move, noticed before the next player's turn began: it is corrected now (rule 4.5)."
)
_AFTER = _(
    "This is an illegal move, noticed after the next player's turn began: the move stands and play "
    "continues (rule 4.5)."
)
_NEXT_TURN = Fact("next_turn_begun", _("Had the next player's turn begun when the error was noticed?"))


def _illegal_move(
    id: str, title: Promise, rules: tuple[str, ...], error: Promise, correction: Promise
) -> Situation:
    """An illegal move under rule 4.5: corrected if the next player's turn has not begun, else it
    stands; an offence of rule 6.3 either way (the ladder starts with a warning)."""
    return Situation(
        id=id,
        title=title,
        rules=(*rules, "4.5", "6.3"),
        facts=(_NEXT_TURN,),
        outcomes=(
            Outcome(
                when={"next_turn_begun": False},
                ruling=format_lazy("{} {}", error, _BEFORE),
                citations=(*rules, "4.5", "6.3"),
                correction=correction,
                offence=Offence.ILLEGAL_MOVE,
            ),
            Outcome(
                when={"next_turn_begun": True},
                ruling=format_lazy("{} {}", error, _AFTER),
                citations=(*rules, "4.5", "6.3"),
                correction=None,
                offence=Offence.ILLEGAL_MOVE,
            ),
        ),
    )


def _settled(
    id: str,
    title: Promise,
    rules: tuple[str, ...],
    ruling: Promise,
    *,
    correction: Promise | None = None,
    offence: Offence | None = None,
    citations: tuple[str, ...] | None = None,
) -> Situation:
    """A situation with one answer whatever happened (no fact is asked); its ruling cites the
    situation's own sections unless `citations` names others."""
    outcome = Outcome(ruling=ruling, citations=citations or rules, correction=correction, offence=offence)
    return Situation(id=id, title=title, rules=rules, facts=(), outcomes=(outcome,))


SITUATIONS: tuple[Situation, ...] = (
    _illegal_move(
        "took_discard_then_discarded",
        _("Took the top discard, then discarded it instead of swapping"),
        ("3.2",),
        _("A card taken from the discard pile must be swapped into the grid; it cannot be discarded."),
        _(
            "The player takes the card back and swaps it with one of their six cards; the card removed "
            "goes on the discard pile."
        ),
    ),
    _illegal_move(
        "discarded_without_flipping",
        _("Discarded a card drawn from the deck and flipped nothing"),
        ("3.4", "8.3"),
        _("Whoever discards the card drawn from the deck must flip one of their face-down cards."),
        _("The player flips one of their face-down cards now (their choice of card)."),
    ),
    _settled(
        "looked_at_face_down_card",
        _("Looked at one of their own face-down cards"),
        ("8.1", "4.3", "6.3"),
        _(
            "Face-down cards may not be looked at until they are legally revealed. Looking "
            "at one is cheating: disqualification from the tournament."
        ),
        correction=_("The card is put back face down in its place; the player leaves the event."),
        offence=Offence.CHEATING,
        citations=("8.1", "6.3"),
    ),
    Situation(
        id="card_revealed",
        title=_("A face-down card became visible"),
        rules=("4.4", "6.3"),
        facts=(
            Fact("intentional", _("Was the card revealed on purpose?")),
            Fact("can_be_hidden", _("Can the card be turned face down again?")),
        ),
        outcomes=(
            Outcome(
                when={"intentional": True},
                ruling=_(
                    "Revealing a face-down card on purpose is cheating: disqualification from the "
                    "tournament (rule 4.4: no penalty unless the reveal was intentional)."
                ),
                citations=("4.4", "6.3"),
                correction=_("The card is turned face down again if it can be; the player leaves the event."),
                offence=Offence.CHEATING,
            ),
            Outcome(
                when={"can_be_hidden": True},
                ruling=_(
                    "An accidental reveal carries no penalty. The card is turned face down again "
                    "and everyone who saw it must forget it (honour system)."
                ),
                citations=("4.4",),
                correction=_("Turn the card face down again in the same place; play continues."),
            ),
            Outcome(
                ruling=_(
                    "An accidental reveal carries no penalty. The card cannot be hidden again: it "
                    "stays face up and play continues."
                ),
                citations=("4.4",),
                correction=_("Leave the card face up; play continues."),
            ),
        ),
    ),
    _illegal_move(
        "moved_card_in_grid",
        _("Moved a card to another position in the grid"),
        ("3.3", "8.4"),
        _("Cards stay in their grid positions all hole; a new card goes exactly where the removed one was."),
        _("The cards go back to the positions they had before the move."),
    ),
    _illegal_move(
        "swapped_two_grid_cards",
        _("Swapped two cards of their own grid with each other"),
        ("3.3", "8.4", "10"),
        _("A turn swaps the card just drawn with one grid card; two grid cards cannot trade places."),
        _("The two cards go back to their positions; the player completes the turn with the card drawn."),
    ),
    _illegal_move(
        "changed_mind_after_drawing",
        _("Returned a drawn card and drew from the other pile"),
        ("3.2", "10"),
        _("Once a card is drawn the player cannot change their mind and draw from the other pile."),
        _(
            "The second card goes back where it came from; the player completes the turn with the first "
            "card drawn."
        ),
    ),
    _settled(
        "horizontal_pair_claimed",
        _("A player claims a horizontal pair scores zero"),
        ("2.3", "8.2", "9.1"),
        _(
            "Only vertical pairs (the two cards of a column) score zero. Horizontal pairs "
            "add their values normally; the horizontal-pairs house rule is not used in "
            "official events."
        ),
        correction=_("Score the row's cards at their values."),
    ),
    _settled(
        "simultaneous_finish",
        _("Two players flipped their last card on the same turn"),
        ("8.5", "3.5"),
        _(
            "The player whose turn it was when the final card was flipped (the one who "
            "acted first) ended the hole; every other player takes one final turn."
        ),
        correction=_("Record the player who acted first as the one who ended the hole."),
    ),
    _settled(
        "stock_exhausted",
        _("The draw pile ran out before the hole ended"),
        ("4.1",),
        _(
            "Set the top discard aside, shuffle the rest of the discard pile into a new "
            "draw pile, and put the set-aside card face up as the new discard pile. Play "
            "continues."
        ),
        correction=_("Rebuild the draw pile from the discards, keeping the top discard."),
    ),
    Situation(
        id="memory_claim_disputed",
        title=_("A player's claim about a face-down card is disputed"),
        rules=("4.3", "6.3"),
        facts=(
            Fact("claim_false", _("Did the claim prove false when the cards were revealed?")),
            Fact("deliberate", _("Is there evidence that the false claim was made on purpose?")),
        ),
        outcomes=(
            Outcome(
                when={"claim_false": True, "deliberate": True},
                ruling=_(
                    "A false claim made on purpose is intentional deception: cheating, "
                    "disqualification from the tournament."
                ),
                citations=("4.3", "6.3"),
                correction=_("Face-down cards are not checked during the hole; the player leaves the event."),
                offence=Offence.CHEATING,
            ),
            Outcome(
                when={"claim_false": True},
                ruling=_(
                    "A claim that proves false is a mistake, not cheating, without evidence of "
                    "intentional deception. No penalty."
                ),
                citations=("4.3",),
                correction=_("Nothing to correct: score the cards as revealed."),
            ),
            Outcome(
                ruling=_(
                    "Memory claims cannot be verified: no one may look at face-down cards until "
                    "they are legally revealed. Play continues on the honour system."
                ),
                citations=("4.3",),
                correction=_("Do not turn any card; play continues."),
            ),
        ),
    ),
    Situation(
        id="wrong_number_flipped_at_start",
        title=_("A player flipped more or fewer than two cards at the start"),
        rules=("1.3", "4.5"),
        facts=(Fact("play_started", _("Had play started when it was noticed?")),),
        outcomes=(
            Outcome(
                when={"play_started": False},
                ruling=_(
                    "Each player flips exactly two cards at the start. Noticed before play "
                    "started, it is simply corrected."
                ),
                citations=("1.3", "4.5"),
                correction=_(
                    "Turn cards so that exactly two are face up; anything seen must be forgotten (rule 4.4)."
                ),
            ),
            Outcome(
                ruling=_(
                    "Each player flips exactly two cards at the start. Noticed after play "
                    "started, the grid stands as it is and play continues; it counts as an "
                    "illegal move."
                ),
                citations=("1.3", "4.5", "6.3"),
                offence=Offence.ILLEGAL_MOVE,
            ),
        ),
    ),
    _settled(
        "outside_assistance",
        _("A player received advice or information from a spectator"),
        ("6.2", "6.3"),
        _(
            "No outside assistance is permitted in tournament play. It is unsportsmanlike "
            "conduct: a warning, then disqualification from the tournament."
        ),
        correction=_("The spectator stops or is asked to leave the playing area."),
        offence=Offence.UNSPORTSMANLIKE,
    ),
    _settled(
        "electronic_device",
        _("A player used a phone or another device during play"),
        ("6.2", "6.3"),
        _(
            "Phones and electronic devices must be silenced and put away during play. "
            "Using one is unsportsmanlike conduct: a warning, then disqualification."
        ),
        correction=_(
            "The device is silenced and put away (scoring the table's game on the "
            "app between holes is allowed by the director)."
        ),
        offence=Offence.UNSPORTSMANLIKE,
    ),
    _settled(
        "starting_player",
        _("Who starts the hole?"),
        ("1.3", "3.1"),
        _(
            "The player with the highest face-up card starts; on a tie, the first of them "
            "clockwise from the dealer. Play then goes clockwise."
        ),
        correction=_("Start with the highest face-up card."),
    ),
    _settled(
        "discard_pile_emptied",
        _("Drawing the only discard leaves the discard pile empty"),
        ("10",),
        _(
            "The top discard may be drawn even if it is the only one. The next card "
            "discarded starts a new discard pile."
        ),
        citations=("10", "3.2"),
    ),
    Situation(
        id="over_time_limit",
        title=_("A player or table went over the time limit"),
        rules=("6.2", "6.3"),
        facts=(Fact("seconds_over", _("How many seconds over the limit?"), "integer"),),
        outcomes=(
            Outcome(
                ruling=_("Time violation: 2 penalty points for each started minute over the time limit."),
                citations=("6.2", "6.3"),
                offence=Offence.TIME,
            ),
        ),
    ),
    _settled(
        "house_rule_requested",
        _("A player asks for a house rule (knock, look once, horizontal pairs...)"),
        ("9",),
        _("House rules are for casual play only. Official tournaments use only the standard rules."),
        correction=_("Play on under the standard rules."),
    ),
    # Answered by the reference beyond the SPEC's list.
    _illegal_move(
        "flipped_face_up_card",
        _("After discarding, 'flipped' a card that was already face up"),
        ("3.4",),
        _("The card flipped after a discard must be a face-down one."),
        _("The player flips one of their face-down cards instead."),
    ),
    _settled(
        "final_turn_skipped",
        _("A player did not get their final turn after someone went out"),
        ("3.5",),
        _(
            "When a player flips their last card, every other player takes one final "
            "turn before the cards are revealed and scored."
        ),
        correction=_("The player takes their final turn before the hole is scored."),
    ),
    _settled(
        "pair_of_twos_scored_zero",
        _("A column pair of 2s was scored as zero"),
        ("2.3", "7"),
        _("A pair of 2s in a column scores -4, not 0: the pair rule does not cancel negative values."),
        correction=_("Correct the hole's score: the column counts -4."),
    ),
)

#: The situations by id.
BY_ID: dict[str, Situation] = {situation.id: situation for situation in SITUATIONS}
