"""factory_boy factories for Pegboard's models."""

import factory
from django.contrib.auth import get_user_model

from tournaments.models import Club, Entry, Event, Player
from tournaments.services.club_recognition import club_recognition_grant
from tournaments.services.clubs import club_create
from tournaments.services.events import event_create


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.org")
    password = factory.django.Password("correct horse battery")


class EventFactory(factory.Factory):
    """An event made by the service, as a director would: from a preset, with its director."""

    class Meta:
        model = Event

    name = factory.Sequence(lambda n: f"Club night {n}")
    preset = "grass-roots"
    director = factory.SubFactory(UserFactory)

    @classmethod
    def _create(cls, model_class, *, director, **kwargs):
        return event_create(user=director, **kwargs)


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    name = factory.Sequence(lambda n: f"Player {n:03d}")
    acc_number = factory.Sequence(lambda n: f"T{n:05d}")


class EntryFactory(factory.django.DjangoModelFactory):
    """A checked-in entry (pass ``status="registered"`` for one not yet at the desk)."""

    class Meta:
        model = Entry

    event = factory.SubFactory(EventFactory)
    player = factory.SubFactory(PlayerFactory)
    status = Entry.Status.CHECKED_IN


class ClubFactory(factory.Factory):
    """A club made by the service, as a person would (``director`` is its first director), and
    recognised by the ACC office, as the clubs on Pegboard before recognition began are: tests
    of ratings and the national table rely on it. ``recognised=False`` leaves it as a new club
    starts."""

    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Club {n:03d}")
    director = factory.SubFactory(UserFactory)
    recognised = True

    @classmethod
    def _create(cls, model_class, *, director, recognised, **kwargs):
        club = club_create(user=director, **kwargs)
        if recognised:
            club = club_recognition_grant(club=club, user=UserFactory(is_staff=True))
        club.director = director
        return club
