"""What the clubs' write API takes and answers: clubs, members (one or a pasted list, a merge),
owners' invitations and seasons. Request bodies are checked strictly (JSON types, clean text, every
unknown key named); the services check the rest (names, uniqueness, dates) and name the field.
Each answer's serializer is also its schema."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from clubs.models import Club, Member
from golfclub.core.input_fields import (
    StrictBooleanField,
    StrictCharField,
    StrictIntegerField,
    StrictObjectSerializer,
)
from golfclub.core.limits import (
    BIGINT_MAX,
    MAX_CLUB_NAME_LENGTH,
    MAX_NAME_LENGTH,
    MAX_PASTED_MEMBERS,
    MAX_SEASON_NAME_LENGTH,
)

# A typed name may carry spaces and invisible characters the services drop: room for them here,
# the services refuse a name too long once cleaned, with its length.
_TYPED_NAME = MAX_NAME_LENGTH * 4


# --- Requests ------------------------------------------------------------------------------------


class ClubCreateSerializer(StrictObjectSerializer):
    """POST /api/v1/clubs/."""

    name = StrictCharField(max_length=MAX_CLUB_NAME_LENGTH * 4, help_text=_("The club's name."))
    is_public = StrictBooleanField(
        required=False, default=False, help_text=_("Public: anyone with its link reads it. Default false.")
    )


class ClubUpdateSerializer(StrictObjectSerializer):
    """PATCH /api/v1/clubs/{id}/."""

    name = StrictCharField(required=False, max_length=MAX_CLUB_NAME_LENGTH * 4)
    is_public = StrictBooleanField(required=False)
    new_public_link = StrictBooleanField(
        required=False, help_text=_("true: replace the public page's link; the old one stops working.")
    )


class MemberCreateSerializer(StrictObjectSerializer):
    """POST /api/v1/clubs/{id}/members/: one `name`, or a pasted list as `names`."""

    name = StrictCharField(required=False, max_length=_TYPED_NAME, help_text=_("One new member's name."))
    names = serializers.ListField(
        child=StrictCharField(allow_blank=True, max_length=_TYPED_NAME),
        required=False,
        max_length=MAX_PASTED_MEMBERS,
        help_text=_("Several new members at once: all are added, or none when a name is bad or taken."),
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """Exactly one of `name` and `names`."""
        if ("name" in attrs) == ("names" in attrs):
            raise serializers.ValidationError({"name": [_('Send either "name" or "names", one of them.')]})
        return attrs


class MemberMergeSerializer(StrictObjectSerializer):
    """POST /api/v1/clubs/{id}/members/merge/."""

    keep = StrictIntegerField(min_value=1, max_value=BIGINT_MAX, help_text=_("The member kept."))
    duplicate = StrictIntegerField(
        min_value=1, max_value=BIGINT_MAX, help_text=_("The same person entered again: merged, then deleted.")
    )


class SeasonCreateSerializer(StrictObjectSerializer):
    """POST /api/v1/clubs/{id}/seasons/."""

    name = StrictCharField(max_length=MAX_SEASON_NAME_LENGTH * 4)
    start = StrictCharField(max_length=10, help_text=_("The first day, YYYY-MM-DD."))
    end = StrictCharField(max_length=10, help_text=_("The last day (included), YYYY-MM-DD."))


class SeasonUpdateSerializer(StrictObjectSerializer):
    """PATCH /api/v1/clubs/{id}/seasons/{season_id}/."""

    name = StrictCharField(required=False, max_length=MAX_SEASON_NAME_LENGTH * 4)
    start = StrictCharField(required=False, max_length=10, help_text="YYYY-MM-DD")
    end = StrictCharField(required=False, max_length=10, help_text="YYYY-MM-DD")


# --- Answers ------------------------------------------------------------------------------------


class ClubSerializer(serializers.Serializer):
    """A club."""

    # Reads a `Club` annotated with its `member_count`, its owners (and their users) prefetched.
    # Context: `request`, and `can_manage` (the asker owns it).
    id = serializers.IntegerField()
    name = serializers.CharField()
    is_public = serializers.BooleanField()
    public_url = serializers.SerializerMethodField(
        help_text=_("The read-only page's link while the club is public, else null.")
    )
    version = serializers.IntegerField(help_text=_("Moves on with every change: the ETag's version."))
    owners = serializers.SerializerMethodField(
        help_text=_("The owners' usernames (empty for a reader who is not an owner)."),
    )
    members = serializers.IntegerField(
        source="member_count", help_text=_("How many members it has (retired ones included).")
    )
    can_manage = serializers.SerializerMethodField(help_text=_("True when you are one of its owners."))

    @extend_schema_field(serializers.URLField(allow_null=True))
    def get_public_url(self, club: Club) -> str | None:
        """The read-only page's absolute link while the club is public, else None."""
        if not club.is_public:
            return None
        return self.context["request"].build_absolute_uri(f"/clubs/p/{club.public_token}/")

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_owners(self, club: Club) -> list[str]:
        """The owners' usernames, the first owner first."""
        # Usernames are login names: shown to the club's owners only, never to a public club's readers.
        if not self.context["can_manage"]:
            return []
        owners = sorted(club.owners.all(), key=lambda owner: (owner.added_at, owner.pk))
        return [owner.user.get_username() for owner in owners]

    @extend_schema_field(serializers.BooleanField())
    def get_can_manage(self, club: Club) -> bool:
        """True when the asker owns the club."""
        return bool(self.context["can_manage"])


class ClubListSerializer(serializers.Serializer):
    """The clubs you own."""

    clubs = ClubSerializer(many=True)


class MemberBriefSerializer(serializers.Serializer):
    """A member just added."""

    # Reads a `Member`.
    id = serializers.IntegerField()
    name = serializers.CharField()


class MembersAddedSerializer(serializers.Serializer):
    """The members a pasted list added, in its order."""

    members = MemberBriefSerializer(many=True)


class MemberRowSerializer(serializers.Serializer):
    """A member in the club's list."""

    # Reads a `Member`.
    id = serializers.IntegerField()
    name = serializers.CharField()
    retired = serializers.SerializerMethodField()
    version = serializers.IntegerField()

    @extend_schema_field(serializers.BooleanField())
    def get_retired(self, member: Member) -> bool:
        """True once retired (off the leaderboard and the game start)."""
        return member.retired_at is not None


class MemberListSerializer(serializers.Serializer):
    """The club's members by name."""

    members = MemberRowSerializer(many=True)


class InvitationSerializer(serializers.Serializer):
    """A one-use link that makes whoever opens it (logged in) a co-owner."""

    url = serializers.URLField()
    token = serializers.CharField()


class SeasonSerializer(serializers.Serializer):
    """A season: a named date range, both days included."""

    # Reads a `Season`.
    id = serializers.IntegerField()
    name = serializers.CharField()
    start = serializers.DateField()
    end = serializers.DateField()


class SeasonListSerializer(serializers.Serializer):
    """The club's seasons, latest first."""

    seasons = SeasonSerializer(many=True)
