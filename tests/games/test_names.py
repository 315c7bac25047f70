"""Names as people mean them: `golfclub.core.names` alone (hypothesis), then every path a name enters by.

Two names are one player when case, full-width letters or an accent typed precomposed or
combining are all that differ; a name with nothing visible is no name.
"""

from __future__ import annotations

import unicodedata

import pytest
from django.db import IntegrityError, transaction
from django.forms import modelform_factory
from hypothesis import given
from hypothesis import strategies as st

from golfclub.core.names import (
    KEY_MAX_LENGTH,
    MAX_NAME_LENGTH,
    InvalidName,
    clean_name,
    is_invisible,
    name_key,
)
from scoring import services
from scoring.game_errors import GameError
from scoring.models import Player, Seat

JOSE_NFC = unicodedata.normalize("NFC", "Jos\u00e9")
JOSE_NFD = unicodedata.normalize("NFD", "Jos\u00e9")
FULL_WIDTH_ANN = "\uff41\uff4e\uff4e"  # "ann" in full-width letters
ZERO_WIDTH = "\u200b"

# Text with the troublemakers mixed in: invisible characters, odd spaces, combining accents.
TRICKY = st.sampled_from(
    ["\u200b", "\u200d", "\ufeff", "\u00ad", "\ufe0f", "\u3000", "\u00a0", "\u0301", "\t"]
)
RAW = st.lists(st.one_of(st.characters(), TRICKY), max_size=60).map("".join)


def _clean_or_none(raw: str) -> str | None:
    try:
        return clean_name(raw)
    except InvalidName:
        return None


# -- the module --------------------------------------------------------------------------------


@given(RAW)
def test_it_cleans_idempotently_and_never_leaves_an_empty_or_invisible_name(raw):
    name = _clean_or_none(raw)
    if name is None:
        return
    assert clean_name(name) == name
    assert name and name == name.strip() and "  " not in name
    assert len(name) <= MAX_NAME_LENGTH
    assert not any(unicodedata.category(c) in ("Cf", "Cc", "Cs") for c in name)
    assert not any(is_invisible(c) for c in name)
    assert unicodedata.is_normalized("NFKC", name)
    assert name_key(name) and name_key(name) == name_key(raw)
    assert len(name_key(name)) <= KEY_MAX_LENGTH


@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=40))
def test_the_ascii_shortcut_gives_what_the_unicode_steps_give(raw):
    # `_normalise` and `name_key` skip the Unicode steps for printable ASCII (the hole path's
    # usual names): the answer must be theirs, for every ASCII text, control characters included.
    from golfclub.core.names import _caseless_key, _normalise, _normalise_unicode

    assert _normalise(raw) == _normalise_unicode(raw)
    assert name_key(raw) == _caseless_key(_normalise_unicode(raw))


@given(st.text(alphabet=st.characters(categories=["Lu", "Ll", "Lt", "Nd"]), min_size=1, max_size=20))
def test_it_gives_one_key_to_case_width_and_composition_variants(word):
    key = name_key(word)
    same_letters = [
        unicodedata.normalize("NFD", word),
        unicodedata.normalize("NFC", word),
        "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in word),  # full-width ASCII
        f" {ZERO_WIDTH}{word}\u00ad\ufe0f ",
    ]
    for variant in same_letters:
        assert name_key(variant) == key, ascii(variant)
    for variant in (word.upper(), word.lower(), word.swapcase(), word.title()):
        # Some letters do not come back from upper case (dotless i -> I -> i): those are other names.
        if unicodedata.normalize("NFD", variant).casefold() == unicodedata.normalize("NFD", word).casefold():
            assert name_key(variant) == key, ascii(variant)
    assert name_key(key) == key


def test_it_refuses_names_with_nothing_visible_and_names_too_long():
    for raw in ["", "   ", ZERO_WIDTH, "\u200d\ufeff", "\u3164", "\ufe0f", 5, None]:
        with pytest.raises(InvalidName) as bad:
            clean_name(raw)
        assert bad.value.reason == "empty"
    for raw, reason, typed in [
        (ZERO_WIDTH, "empty", True),
        ("  ", "empty", False),
        ("x" * 41, "too_long", False),
    ]:
        with pytest.raises(InvalidName) as bad:
            clean_name(raw)
        assert (bad.value.reason, bad.value.typed) == (reason, typed)


def test_it_keeps_what_people_see_and_compares_as_they_read():
    assert clean_name(JOSE_NFD) == JOSE_NFC
    assert clean_name(FULL_WIDTH_ANN) == "ann"
    assert clean_name(" Ann \u3000 Lee\u200b ") == "Ann Lee"
    assert clean_name("e\u200b\u0301") == "\u00e9"  # the invisible character no longer blocks the accent
    assert name_key(JOSE_NFC) == name_key(JOSE_NFD) == name_key("JOS\u00c9")
    assert name_key("Stra\u00dfe") == name_key("STRASSE")
    assert name_key(FULL_WIDTH_ANN) == name_key("ANN") == "ann"
    assert name_key("Ann") != name_key("Anna")


# -- services: games, seats, the roster ------------------------------------------------------------


@pytest.mark.django_db
def test_it_refuses_a_zero_width_name_naming_the_seat(make_game):
    with pytest.raises(GameError) as error:
        make_game(["Ann", ZERO_WIDTH])
    assert error.value.problems[0].where == "players[2]"
    assert "Seat 2 needs a name: this one has no visible characters." in error.value.message
    game = make_game(["Ann", "Bob"])
    for call in (
        lambda: services.seat_add(game, ZERO_WIDTH),
        lambda: services.seat_rename(game, 1, "\ufeff"),
    ):
        with pytest.raises(GameError) as error:
            call()
        assert error.value.problems[0].where == "name"
    assert list(game.seats.values_list("name", flat=True)) == ["Ann", "Bob"]


@pytest.mark.django_db
@pytest.mark.parametrize(("first", "second"), [(JOSE_NFC, JOSE_NFD), ("ann", FULL_WIDTH_ANN), ("Ann", "ANN")])
def test_it_refuses_variants_of_one_name_at_one_table(make_game, first, second):
    with pytest.raises(GameError) as error:
        make_game([first, second])
    assert error.value.problems[0].where == "players[2]" and "already at the table" in error.value.message
    game = make_game([first, "Bob"])
    with pytest.raises(GameError, match="already at the table"):
        services.seat_add(game, second)
    with pytest.raises(GameError, match="already at the table"):
        services.seat_rename(game, 1, second)
    assert services.seat_rename(game, 0, second).name == clean_name(second)  # its own seat: fine


@pytest.mark.django_db
def test_it_stores_clean_names_with_their_keys(make_game):
    game = make_game([JOSE_NFD, FULL_WIDTH_ANN, " Bo\u200bb "])
    seats = list(game.seats.order_by("seat").values_list("name", "name_key"))
    assert seats == [(JOSE_NFC, "jos\u00e9"), ("ann", "ann"), ("Bob", "bob")]


@pytest.mark.django_db
def test_it_reuses_roster_players_across_variants(make_game, django_user_model):
    user = django_user_model.objects.create_user("host", password="pw-12345-long")
    make_game([JOSE_NFC, "ann"], owner=user)
    second = make_game([JOSE_NFD, FULL_WIDTH_ANN.upper()], owner=user)
    seat = services.seat_add(second, "BOB")
    services.player_create(user, "Cy")
    third = make_game(["cy", "bob"], owner=user)
    assert Player.objects.filter(owner=user).count() == 4  # José, ann, BOB, Cy
    roster = {p.name_key: p.pk for p in Player.objects.filter(owner=user)}
    assert [s.player_id for s in second.seats.order_by("seat")] == [
        roster["jos\u00e9"],
        roster["ann"],
        seat.player_id,
    ]
    assert [s.player_id for s in third.seats.order_by("seat")] == [roster["cy"], roster["bob"]]


@pytest.mark.django_db
def test_it_refuses_a_roster_variant_on_create_and_rename(django_user_model):
    user = django_user_model.objects.create_user("host", password="pw-12345-long")
    jose = services.player_create(user, JOSE_NFC)
    ann = services.player_create(user, "ann")
    for name in (JOSE_NFD, "JOS\u00c9"):
        with pytest.raises(GameError, match="already on your list"):
            services.player_create(user, name)
    with pytest.raises(GameError, match="already on your list"):
        services.player_rename(ann, JOSE_NFD)
    assert services.player_rename(jose, JOSE_NFD.upper()).name_key == "jos\u00e9"  # itself: fine
    with pytest.raises(GameError, match="no visible characters"):
        services.player_create(user, ZERO_WIDTH)
    assert Player.objects.filter(owner=user).count() == 2


@pytest.mark.django_db
def test_it_holds_case_insensitive_uniqueness_in_the_database(make_game, django_user_model):
    user = django_user_model.objects.create_user("host", password="pw-12345-long")
    Player.objects.create(owner=user, name="CaseX")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(owner=user, name="casex")  # bypassing the services
    Player.objects.create(name="casex")  # table-only players have no roster to clash with
    Player.objects.create(name="CASEX")
    game = make_game(["Ann", "Bob"])
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(game=game, seat=5, name=FULL_WIDTH_ANN)
    seat = Seat.objects.get(game=game, seat=1)
    seat.name = "ANN"
    with pytest.raises(IntegrityError), transaction.atomic():
        seat.save(update_fields=["name"])  # the key follows the name on every save


# -- the API and the start page go through the same checks -------------------------------------


@pytest.mark.django_db
def test_it_answers_400_for_invisible_and_variant_names_in_the_api(api):
    response = api.post("/api/v1/games/", {"players": ["ann", ZERO_WIDTH]}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["where"] == "players[2]"
    response = api.post("/api/v1/games/", {"players": ["ann", FULL_WIDTH_ANN]}, format="json")
    assert response.status_code == 400 and "already at the table" in response.json()["detail"]
    token = api.post("/api/v1/games/", {"players": [JOSE_NFC, "bob"]}, format="json").json()["edit_token"]
    response = api.post(f"/api/v1/games/{token}/players/", {"name": JOSE_NFD}, format="json")
    assert response.status_code == 400 and "already at the table" in response.json()["detail"]


@pytest.mark.django_db
def test_it_names_the_seat_of_an_invisible_or_variant_name_on_the_start_page(client):
    query = {
        "step": "dealer",
        "ruleset": "official",
        "player": ["ann", ZERO_WIDTH, FULL_WIDTH_ANN, "", "Bob"],
    }
    response = client.get("/games/new/", query)
    body = " ".join(response.content.decode().split())
    assert response.status_code == 400
    assert "Player 2: the name has no visible characters." in body
    assert "Player 3: &quot;ann&quot; is already player 1; names must differ." in body


@pytest.mark.django_db
def test_it_validates_names_and_their_keys_in_model_forms_such_as_the_admins(django_user_model):
    user = django_user_model.objects.create_user("host", password="pw-12345-long")
    Player.objects.create(owner=user, name="Ann")
    form_class = modelform_factory(Player, fields=["name", "owner"])
    taken = form_class({"name": "\uff21NN", "owner": user.pk})
    assert not taken.is_valid() and taken.errors["__all__"] == ["This name is already on the owner's list."]
    invisible = form_class({"name": ZERO_WIDTH, "owner": user.pk})
    assert not invisible.is_valid() and invisible.errors["name"] == ["The name needs visible characters."]
    fine = form_class({"name": f" Bo{ZERO_WIDTH}b ", "owner": user.pk})
    assert fine.is_valid(), fine.errors
    assert (fine.save().name, Player.objects.get(name="Bob").name_key) == ("Bob", "bob")


@pytest.mark.django_db
def test_it_matches_hole_entries_and_the_ender_to_players_as_names_are_compared():
    game = services.create_game(players=["ann", "José"], ruleset="official")
    hole = services.hole_record(game, entries={"\uff21\uff2e\uff2e": 3, "Jose\u0301": 4}, ender="ANN")
    assert dict(hole.entries.values_list("seat__name", "score")) == {"ann": 3, "José": 4}
    assert hole.ender.name == "ann"
