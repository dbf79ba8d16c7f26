"""Clubs and players.

- club: an ACC Grass Roots club (or any cribbage club) that runs club nights and tracks seasons.
- player: a person who enters events. ``acc_number`` is the ACC membership number, unique when
  given; many players at club nights have none.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q


class Club(models.Model):
    name = models.CharField(max_length=200, unique=True)
    city = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    name = models.CharField(max_length=200)
    acc_number = models.CharField("ACC number", max_length=20, blank=True)
    home_club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.SET_NULL)
    email = models.EmailField(blank=True)
    phone = models.CharField(max_length=40, blank=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["acc_number"], condition=~Q(acc_number=""), name="player_unique_acc_number"
            )
        ]

    def __str__(self) -> str:
        return self.name
