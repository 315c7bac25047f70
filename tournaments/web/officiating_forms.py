"""The officials' forms: a ruling (the facts a situation asks, where it happened, the player, the
step an official may decide) and a table's extension. The services check everything again; these
forms only make sure a yes is a yes and a number a number."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from golfclub.core.form_fields import TextField, WholeNumberField
from golfclub.core.limits import MAX_REASON_LENGTH
from tournaments.limits import MAX_NOTE
from tournaments.models import PenaltyStep
from tournaments.officiating.advice import MAX_FACT_NUMBER
from tournaments.officiating.catalogue import SITUATIONS, Situation
from tournaments.services.calls import MAX_EXTENSION

YES_NO = [("yes", _("Yes")), ("no", _("No"))]


def situation_choices() -> list[tuple[str, Any]]:
    """The catalogue as a select's choices, in the catalogue's order."""
    return [("", _("Choose the situation…")), *((s.id, s.title) for s in SITUATIONS)]


class RulingForm(forms.Form):
    """A ruling at a table: `fact_<name>` for each fact of the situation, then who and where."""

    player = forms.TypedChoiceField(label=_("Player"), coerce=int, required=False, empty_value=None)
    round = WholeNumberField(label=_("Round"), min_value=1, max_value=99, required=False)
    table = WholeNumberField(label=_("Table"), min_value=1, max_value=10_000, required=False)
    hole = WholeNumberField(label=_("Hole"), min_value=1, max_value=99, required=False)
    note = TextField(label=_("Note (what happened)"), max_length=MAX_NOTE, required=False)
    step = forms.ChoiceField(
        label=_("Penalty step"),
        required=False,
        help_text=_(
            "Leave as proposed to follow rule 6.3's ladder; another step is recorded as your decision."
        ),
    )

    def __init__(
        self, *args: Any, situation: Situation, players: list[tuple[int, str]], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.situation = situation
        self.fields["player"].choices = [("", _("(nobody in particular)")), *players]
        self.fields["step"].choices = [("", _("As the ladder proposes")), *PenaltyStep.choices]
        facts: dict[str, forms.Field] = {}
        for fact in situation.facts:
            if fact.type == "boolean":
                facts[f"fact_{fact.name}"] = forms.ChoiceField(
                    label=fact.question, choices=YES_NO, widget=forms.RadioSelect
                )
            else:
                facts[f"fact_{fact.name}"] = WholeNumberField(
                    label=fact.question, min_value=0, max_value=MAX_FACT_NUMBER
                )
        # The facts first: they decide the ruling; who and where come after.
        self.fields = {**facts, **self.fields}
        # The services name a fact `facts.<name>`: its problems show on its question.
        self.problem_fields = {f"facts.{fact.name}": f"fact_{fact.name}" for fact in situation.facts}

    def fact_fields(self) -> list[forms.BoundField]:
        """The situation's questions, in order."""
        return [self[f"fact_{fact.name}"] for fact in self.situation.facts]

    def facts(self) -> dict[str, bool | int]:
        """The answered facts as the catalogue takes them (call after `is_valid()`)."""
        answers: dict[str, bool | int] = {}
        for fact in self.situation.facts:
            value = self.cleaned_data.get(f"fact_{fact.name}")
            answers[fact.name] = value == "yes" if fact.type == "boolean" else value
        return answers


class ExtensionForm(forms.Form):
    """More minutes on the clock for one table, with a reason."""

    minutes = WholeNumberField(label=_("Extra minutes"), min_value=1, max_value=MAX_EXTENSION)
    reason = TextField(label=_("Reason"), max_length=MAX_REASON_LENGTH)


class CallForm(forms.Form):
    """A table calling an official: who calls (a player at the table) and what happened."""

    called_by = forms.ChoiceField(label=_("Who is calling?"), required=False)
    note = TextField(label=_("What happened (optional)"), max_length=MAX_NOTE, required=False)

    def __init__(self, *args: Any, names: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["called_by"].choices = [("", _("(not saying)")), *((n, n) for n in names)]
