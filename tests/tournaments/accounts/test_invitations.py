"""Invitations to hold a role: a director e-mails one, the invited person signs up (or signs in)
from the link and holds the role; withdrawn, expired and taken invitations are refused with a
clear page; every step of an event's invitation is in its history."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.core.cache import caches
from django.test import Client
from django.utils import timezone

from tests.factories import EventFactory, UserFactory
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, Club, ClubRole, EventRole, Invitation
from tournaments.services.invitations import (
    invitation_accept,
    invitation_send,
    invitation_withdraw,
)

pytestmark = pytest.mark.django_db
PASSWORD = "fifteen-two-fifteen-four"


@pytest.fixture
def director():
    return UserFactory(username="dora", first_name="Dora", last_name="Director")


@pytest.fixture
def event(director):
    return EventFactory(director=director, name="Autumn Main")


@pytest.fixture(autouse=True)
def fresh_limits():
    """allauth's limits are counted in the default cache, which outlives a test."""
    caches["default"].clear()


def _signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _path(message) -> str:
    return re.search(r"https?://[^/\s]+(/\S+)", message.body).group(1)


def test_a_judge_with_no_account_signs_up_from_the_emailed_link_and_holds_the_role(
    event, director, django_capture_on_commit_callbacks
):
    page = _signed_in(director)
    with django_capture_on_commit_callbacks(execute=True):
        sent = page.post(
            f"/events/{event.pk}/invitations/", {"email": "judy@example.org", "role": "judge"}
        )
    assert sent.status_code == 302
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["judy@example.org"]
    assert "judge of Autumn Main" in mail.outbox[0].body
    link = _path(mail.outbox[0])
    assert "judy@example.org" in page.get(f"/events/{event.pk}/manage/").content.decode()

    judy = Client()
    landing = judy.get(link)
    html = landing.content.decode()
    assert landing.status_code == 200 and "Make an account" in html
    signup = re.search(r'href="(/accounts/signup/\?next=[^"]+)"', html).group(1)
    form = {"username": "judy", "email": "judy@example.org"}
    form |= {"password1": PASSWORD, "password2": PASSWORD}
    assert judy.post(signup.replace("&amp;", "&"), form).status_code == 302
    confirm = _path(mail.outbox[-1])
    back = judy.post(confirm)
    assert back.status_code == 302 and back["Location"] == link  # back to the invitation
    taken = judy.post(link)
    assert taken.status_code == 302
    assert EventRole.objects.filter(event=event, user__username="judy", role="judge").exists()
    actions = list(AuditEntry.objects.filter(event=event).values_list("action", flat=True))
    assert "invitation_send" in actions and "invitation_accept" in actions


def test_a_withdrawn_invitation_is_refused_with_a_clear_page(event, director):
    invitation = invitation_send(actor=director, event=event, email="c@example.org", role="judge")
    invitation_withdraw(actor=director, invitation=invitation)
    answer = _signed_in(UserFactory()).post(f"/invitations/{invitation.token}/")
    assert answer.status_code == 410
    html = answer.content.decode()
    assert "withdrawn" in html and "ask Dora Director to invite you again" in html
    assert not EventRole.objects.filter(event=event, role="judge").exists()


def test_an_expired_invitation_is_refused_and_says_whom_to_ask(event, director):
    invitation = invitation_send(actor=director, event=event, email="c@example.org", role="judge")
    Invitation.objects.filter(pk=invitation.pk).update(
        expires_at=timezone.now() - timedelta(minutes=1)
    )
    user = UserFactory()
    answer = Client().get(f"/invitations/{invitation.token}/")
    assert answer.status_code == 410 and "expired" in answer.content.decode()
    with pytest.raises(ServiceError) as refused:
        invitation_accept(invitation=invitation, user=user)
    assert refused.value.code == "invitation_expired" and "Dora Director" in refused.value.message


def test_taken_once_only_and_a_second_invitation_waits_for_a_withdrawal(event, director):
    invitation = invitation_send(actor=director, event=event, email="c@example.org", role="judge")
    with pytest.raises(ServiceError) as twice:
        invitation_send(actor=director, event=event, email="C@example.org", role="judge")
    assert twice.value.code == "already_invited" and "Withdraw it first" in twice.value.message
    first, second = UserFactory(), UserFactory()
    invitation_accept(invitation=invitation, user=first)
    with pytest.raises(ServiceError) as taken:
        invitation_accept(invitation=invitation, user=second)
    assert taken.value.code == "invitation_taken"
    with pytest.raises(ServiceError) as late:
        invitation_withdraw(actor=director, invitation=invitation)
    assert late.value.code == "invitation_taken" and "remove their role" in late.value.message


def test_a_refused_invitation_form_keeps_what_was_typed(event, director):
    answer = _signed_in(director).post(
        f"/events/{event.pk}/invitations/", {"email": "not-an-address", "role": "judge"}
    )
    assert answer.status_code == 400
    assert 'value="not-an-address"' in answer.content.decode()
    assert not Invitation.objects.exists()


def test_another_events_director_and_a_visitor_cannot_invite_or_withdraw(event, director):
    invitation = invitation_send(actor=director, event=event, email="c@example.org", role="judge")
    other = UserFactory()
    EventFactory(director=other)
    data = {"email": "x@example.org", "role": "director"}
    assert _signed_in(other).post(f"/events/{event.pk}/invitations/", data).status_code == 403
    withdraw = f"/events/{event.pk}/invitations/{invitation.pk}/withdraw/"
    assert _signed_in(other).post(withdraw).status_code == 403
    assert Client().post(withdraw).status_code == 302  # to the login page
    invitation.refresh_from_db()
    assert invitation.status == "pending" and Invitation.objects.count() == 1


def test_a_club_director_invites_another_who_signs_in_and_directs_the_club(
    director, django_capture_on_commit_callbacks
):
    club = Club.objects.create(name="Pegtown Cribbage Club")
    ClubRole.objects.create(club=club, user=director)
    with django_capture_on_commit_callbacks(execute=True):
        answer = _signed_in(director).post(
            f"/clubs/{club.pk}/invitations/", {"email": "bob@example.org"}
        )
    assert answer.status_code == 302 and len(mail.outbox) == 1
    bob = UserFactory(username="bob")
    taken = _signed_in(bob).post(_path(mail.outbox[0]))
    assert taken.status_code == 302 and taken["Location"] == f"/clubs/{club.pk}/"
    assert ClubRole.objects.filter(club=club, user=bob).exists()
    stranger = UserFactory()
    refused = _signed_in(stranger).post(
        f"/clubs/{club.pk}/invitations/", {"email": "eve@example.org"}
    )
    assert refused.status_code == 403 and Invitation.objects.count() == 1


def test_an_unknown_link_is_a_404():
    assert Client().get("/invitations/nothing-here/").status_code == 404
