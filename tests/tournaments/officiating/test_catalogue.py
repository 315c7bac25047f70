"""Every situation of the rulings catalogue, case by case: its ruling, citations, correction and
offence for each combination of its facts; the SPEC's ids and fact names exactly; bad facts named."""

from __future__ import annotations

import itertools

import pytest

from tournaments.errors import TournamentError
from tournaments.officiating.advice import advise, outcome_for
from tournaments.officiating.catalogue import BY_ID, SITUATIONS

#: The SPEC's "Rulings API contract" catalogue: ids and facts as written there.
SPEC_SITUATIONS = {
    "took_discard_then_discarded": ["next_turn_begun"],
    "discarded_without_flipping": ["next_turn_begun"],
    "looked_at_face_down_card": [],
    "card_revealed": ["intentional", "can_be_hidden"],
    "moved_card_in_grid": ["next_turn_begun"],
    "swapped_two_grid_cards": ["next_turn_begun"],
    "changed_mind_after_drawing": ["next_turn_begun"],
    "horizontal_pair_claimed": [],
    "simultaneous_finish": [],
    "stock_exhausted": [],
    "memory_claim_disputed": ["claim_false", "deliberate"],
    "wrong_number_flipped_at_start": ["play_started"],
    "outside_assistance": [],
    "electronic_device": [],
    "starting_player": [],
    "discard_pile_emptied": [],
    "over_time_limit": ["seconds_over"],
    "house_rule_requested": [],
}
SECTIONS = {"1.3", "2.3", "3.1", "3.2", "3.3", "3.4", "3.5", "4.1", "4.3", "4.4", "4.5", "6.2", "6.3"}
SECTIONS |= {"7", "8.1", "8.2", "8.3", "8.4", "8.5", "9", "9.1", "10"}

# (situation, facts) -> (offence, sections that must be cited, a correction expected?)
CASES = {
    ("took_discard_then_discarded", (("next_turn_begun", False),)): ("illegal_move", {"3.2", "4.5"}, True),
    ("took_discard_then_discarded", (("next_turn_begun", True),)): ("illegal_move", {"3.2", "4.5"}, False),
    ("discarded_without_flipping", (("next_turn_begun", False),)): ("illegal_move", {"3.4", "8.3"}, True),
    ("discarded_without_flipping", (("next_turn_begun", True),)): ("illegal_move", {"8.3", "4.5"}, False),
    ("looked_at_face_down_card", ()): ("cheating", {"8.1"}, True),
    ("card_revealed", (("intentional", True), ("can_be_hidden", True))): ("cheating", {"4.4"}, True),
    ("card_revealed", (("intentional", True), ("can_be_hidden", False))): ("cheating", {"4.4"}, True),
    ("card_revealed", (("intentional", False), ("can_be_hidden", True))): (None, {"4.4"}, True),
    ("card_revealed", (("intentional", False), ("can_be_hidden", False))): (None, {"4.4"}, True),
    ("moved_card_in_grid", (("next_turn_begun", False),)): ("illegal_move", {"3.3", "8.4", "4.5"}, True),
    ("moved_card_in_grid", (("next_turn_begun", True),)): ("illegal_move", {"8.4", "4.5"}, False),
    ("swapped_two_grid_cards", (("next_turn_begun", False),)): ("illegal_move", {"3.3", "4.5"}, True),
    ("swapped_two_grid_cards", (("next_turn_begun", True),)): ("illegal_move", {"3.3", "4.5"}, False),
    ("changed_mind_after_drawing", (("next_turn_begun", False),)): ("illegal_move", {"3.2", "4.5"}, True),
    ("changed_mind_after_drawing", (("next_turn_begun", True),)): ("illegal_move", {"3.2", "4.5"}, False),
    ("horizontal_pair_claimed", ()): (None, {"2.3", "8.2"}, True),
    ("simultaneous_finish", ()): (None, {"8.5"}, True),
    ("stock_exhausted", ()): (None, {"4.1"}, True),
    ("memory_claim_disputed", (("claim_false", True), ("deliberate", True))): ("cheating", {"4.3"}, True),
    ("memory_claim_disputed", (("claim_false", True), ("deliberate", False))): (None, {"4.3"}, True),
    ("memory_claim_disputed", (("claim_false", False), ("deliberate", True))): (None, {"4.3"}, True),
    ("memory_claim_disputed", (("claim_false", False), ("deliberate", False))): (None, {"4.3"}, True),
    ("wrong_number_flipped_at_start", (("play_started", False),)): (None, {"1.3", "4.5"}, True),
    ("wrong_number_flipped_at_start", (("play_started", True),)): ("illegal_move", {"1.3", "4.5"}, False),
    ("outside_assistance", ()): ("unsportsmanlike", {"6.2", "6.3"}, True),
    ("electronic_device", ()): ("unsportsmanlike", {"6.2", "6.3"}, True),
    ("starting_player", ()): (None, {"1.3"}, True),
    ("discard_pile_emptied", ()): (None, {"10"}, False),
    ("over_time_limit", (("seconds_over", 200),)): ("time", {"6.3"}, False),
    ("house_rule_requested", ()): (None, {"9"}, True),
    ("flipped_face_up_card", (("next_turn_begun", False),)): ("illegal_move", {"3.4", "4.5"}, True),
    ("final_turn_skipped", ()): (None, {"3.5"}, True),
    ("pair_of_twos_scored_zero", ()): (None, {"2.3"}, True),
}


def test_it_has_every_situation_of_the_spec_with_its_facts_exactly() -> None:
    for situation_id, facts in SPEC_SITUATIONS.items():
        assert situation_id in BY_ID, situation_id
        assert [fact.name for fact in BY_ID[situation_id].facts] == facts
    assert len(BY_ID) == len(SITUATIONS) > len(SPEC_SITUATIONS)  # ids unique, and more than the SPEC


@pytest.mark.parametrize(("key", "expected"), list(CASES.items()), ids=[f"{k[0]}-{k[1]}" for k in CASES])
def test_it_answers_each_case_from_the_reference(key, expected) -> None:
    (situation_id, facts), (offence, cited, corrects) = key, expected
    advice = advise(situation_id, dict(facts))
    assert advice.offence == offence
    assert cited <= set(advice.citations) <= SECTIONS
    assert (advice.correction is not None) == corrects
    assert len(advice.ruling) > 40 and advice.ruling.endswith(".")


def test_every_combination_of_every_situations_facts_has_an_answer_and_a_case() -> None:
    """No fact combination falls through (a catalogue defect), and the cases above cover them all."""
    covered = {situation_id for situation_id, _facts in CASES}
    assert covered == set(BY_ID)
    for situation in SITUATIONS:
        booleans = [fact.name for fact in situation.facts if fact.type == "boolean"]
        for values in itertools.product([False, True], repeat=len(booleans)):
            facts = dict(zip(booleans, values, strict=True)) | {
                fact.name: 60 for fact in situation.facts if fact.type == "integer"
            }
            assert outcome_for(situation, facts).ruling
        cited = {c for outcome in situation.outcomes for c in outcome.citations}
        assert set(situation.rules) <= SECTIONS and cited <= SECTIONS


@pytest.mark.parametrize(
    ("situation", "facts", "where"),
    [
        ("no_such_thing", {}, ["situation"]),
        (None, {}, ["situation"]),
        ("took_discard_then_discarded", {}, ["facts.next_turn_begun"]),
        ("took_discard_then_discarded", {"next_turn_begun": "no"}, ["facts.next_turn_begun"]),
        ("took_discard_then_discarded", {"next_turn_begun": 0}, ["facts.next_turn_begun"]),
        ("took_discard_then_discarded", {"next_turn_begun": True, "extra": 1}, ["facts.extra"]),
        ("card_revealed", {"intentional": True}, ["facts.can_be_hidden"]),
        ("over_time_limit", {"seconds_over": -1}, ["facts.seconds_over"]),
        ("over_time_limit", {"seconds_over": True}, ["facts.seconds_over"]),
        ("over_time_limit", {"seconds_over": 10**30}, ["facts.seconds_over"]),
        ("over_time_limit", {"seconds_over": "٣٠"}, ["facts.seconds_over"]),
        ("stock_exhausted", ["x"], ["facts"]),
    ],
)
def test_it_names_every_bad_fact(situation, facts, where) -> None:
    with pytest.raises(TournamentError) as raised:
        advise(situation, facts)
    assert sorted(p.where for p in raised.value.problems) == sorted(where)
