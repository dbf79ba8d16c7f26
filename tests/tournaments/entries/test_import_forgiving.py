"""Importing a list of players as directors really have it: Excel's semicolons and byte-order
mark, tabs copied from a spreadsheet, header names of every kind, the same list uploaded again
after it grew, and every problem of a bad file named at once with nothing saved."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from hypothesis import given
from hypothesis import strategies as st

from tests.factories import EntryFactory, EventFactory, PlayerFactory, UserFactory
from tests.helpers import client_for
from tournaments.core.player_list import ListError, PlayerIndex, header_key, read_player_list
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, Club, Entry, Player
from tournaments.services.entries_import import (
    ImportChoicesNeeded,
    ImportRowErrors,
    entries_import_csv,
)
from tournaments.services.withdrawals import entry_withdraw

EUROPEAN_EXCEL = "\ufeffName;ACC Number\r\nZoë Ärger;A-1\r\nBea Baker;A-2\r\nCal Cross;\r\n"


@pytest.fixture
def event(db):
    director = UserFactory()
    event = EventFactory(director=director)
    event.director = director
    return event


@pytest.fixture
def director_client(client, event):
    client.force_login(event.director)
    return client


def _upload(client, event, data: bytes, **fields):
    upload = SimpleUploadedFile("players.csv", data, content_type="text/csv")
    return client.post(
        f"/events/{event.pk}/entries/import/", {"file": upload, **fields}, follow=True
    )


def _entered(event) -> dict[str, str]:
    return dict(Entry.objects.filter(event=event).values_list("player__name", "player__acc_number"))


# Reading the file (the pure part)


@pytest.mark.parametrize(
    "header",
    ["ACC Number", "ACC #", "acc#", "ACC No.", "acc_number", "Member", "Member #", " ACC  number "],
)
def test_every_usual_name_of_the_acc_number_column(header):
    found = read_player_list(f"Name,{header}\nAnn Able,A-1\n")
    assert found.rows == [(2, {**_blank(), "name": "Ann Able", "acc_number": "A-1"})]
    assert found.columns["acc_number"] == header.strip()


@pytest.mark.parametrize("header", ["Name", "PLAYER", "Player Name", "Full name", "player's name"])
def test_every_usual_name_of_the_name_column(header):
    [(_, values)] = read_player_list(f"{header}\tClub\nAnn Able\tRiverside\n").rows
    assert (values["name"], values["club"]) == ("Ann Able", "Riverside")


def test_first_and_last_name_columns_are_joined():
    text = "Last Name,First Name,E-mail,Cell\nAble,Ann,ann@example.org,555-0100\n,Bob,,\n"
    found = read_player_list(text)
    assert [v["name"] for _, v in found.rows] == ["Ann Able", "Bob"]
    assert found.rows[0][1]["email"] == "ann@example.org"
    assert found.rows[0][1]["phone"] == "555-0100"
    assert found.columns["name"] == "First Name + Last Name"


def test_the_delimiter_is_found_by_how_the_header_reads():
    assert read_player_list(EUROPEAN_EXCEL).delimiter == ";"
    assert read_player_list("Name\tACC #\nAnn Able\tA-1\n").delimiter == "\t"
    assert read_player_list("name\nAnn Able\n").delimiter == ","  # one column: nothing to sniff
    # commas inside names, semicolons between columns: the header decides
    found = read_player_list("Name;Club\nAble, Ann;Riverside\nBaker, Bea;Hillside\n")
    assert [v["name"] for _, v in found.rows] == ["Able, Ann", "Baker, Bea"]


def test_unknown_columns_are_read_past_and_named_and_blank_rows_keep_their_numbers():
    found = read_player_list("Name,Paid,Notes,\nAnn Able,yes,late,\n,,,\n\nBob Baker,,,\n")
    assert found.unused == ["Paid", "Notes"]
    assert [(row, v["name"]) for row, v in found.rows] == [(2, "Ann Able"), (5, "Bob Baker")]


def test_a_file_without_a_name_column_says_what_its_header_has():
    with pytest.raises(ListError) as no_name:
        read_player_list("ACC #;Club\nA-1;Riverside\n")
    assert no_name.value.code == "missing_header"
    assert '"ACC #", "Club"' in no_name.value.message and "First Name" in no_name.value.message
    with pytest.raises(ListError) as twice:
        read_player_list("Name,Player\nAnn,Ann\n")
    assert twice.value.code == "duplicate_column" and '"Name" and "Player"' in twice.value.message


def test_line_endings_of_every_kind_and_line_breaks_inside_a_cell():
    old_mac = read_player_list("name\rAnn Able\rBob Baker\r")
    assert [(row, v["name"]) for row, v in old_mac.rows] == [(2, "Ann Able"), (3, "Bob Baker")]
    found = read_player_list('Name;ACC #\r\n"Smith\r\nJohn";A-1\r\nBob;B-2\r\n')
    assert [(row, v["name"]) for row, v in found.rows] == [(2, "Smith John"), (3, "Bob")]


def test_a_file_the_csv_reader_cannot_read_is_refused_not_a_crash():
    with pytest.raises(ListError) as refused:
        read_player_list('name\n"' + "x" * 200_000 + '"\n')
    assert refused.value.code == "unreadable"


def test_a_name_cut_by_an_unquoted_comma_is_caught():
    assert read_player_list("name\nSmith, John\nAnn Able\n").overflowing == [2]


def test_header_keys():
    assert header_key("ACC #") == header_key("acc#") == "acc#"
    assert header_key("E-Mail  Address") == "e mail address"


def test_a_player_is_found_by_acc_number_else_by_name_when_one_has_no_number():
    index = PlayerIndex()
    index.add("ann", name="Ann Able", acc_number="A-1")
    index.add("bob", name="Bob Baker", acc_number="")
    assert index.find(name="Someone Else", acc_number=" a-1 ") == "ann"
    assert index.find(name="  ann   ABLE ", acc_number="") == "ann"
    assert index.find(name="Ann Able", acc_number="A-9") is None  # another Ann Able
    assert index.find(name="bob baker", acc_number="B-7") == "bob"
    assert index.find(name="Bob Bakers", acc_number="") is None


_names = st.lists(
    st.from_regex(r"[A-Z][a-zé]{1,8} [A-Z][a-z]{1,8}", fullmatch=True), min_size=1, max_size=8
)


@given(
    names=_names,
    delimiter=st.sampled_from([",", ";", "\t"]),
    header=st.sampled_from(["Name", "player name", "FULL NAME"]),
    bom=st.booleans(),
    newline=st.sampled_from(["\n", "\r\n"]),
)
def test_any_delimiter_header_and_line_ending_reads_the_same_names(
    names, delimiter, header, bom, newline
):
    lines = [f"{header}{delimiter}ACC #"] + [f"{n}{delimiter}A-{i}" for i, n in enumerate(names)]
    text = ("\ufeff" if bom else "") + newline.join(lines) + newline
    found = read_player_list(text)
    assert [(v["name"], v["acc_number"]) for _, v in found.rows] == [
        (n, f"A-{i}") for i, n in enumerate(names)
    ]


def _blank():
    return {"name": "", "acc_number": "", "club": "", "email": "", "phone": ""}


# Importing through the page


def test_a_european_excel_export_with_semicolons_and_a_bom(director_client, event):
    response = _upload(director_client, event, EUROPEAN_EXCEL.encode("utf-8"))
    assert response.redirect_chain[-1][0] == f"/events/{event.pk}/manage/"
    assert "3 players imported." in response.content.decode()
    assert _entered(event) == {"Zoë Ärger": "A-1", "Bea Baker": "A-2", "Cal Cross": ""}


def test_excel_plain_csv_on_windows_is_windows_1252(director_client, event):
    Club.objects.create(name="Montreal")  # the known club, whatever the accents
    data = "Name;Club\r\nZoë Bélanger;Montréal\r\n".encode("cp1252")
    response = _upload(director_client, event, data)
    assert "1 player imported." in response.content.decode()
    player = Entry.objects.get(event=event).player
    assert (player.name, player.home_club.name) == ("Zoë Bélanger", "Montreal")


def test_tabs_copied_from_a_spreadsheet_with_renamed_headers(event):
    text = (
        "First Name\tLast Name\tMember #\tHome Club\tE-mail\tPaid\n"
        "Ann\tAble\tA-1\tRiverside\tann@example.org\tyes\n"
        "Bob\tBaker\t\tHillside\t\tno\n"
    )
    clubs = {"Riverside": "new", "Hillside": "new"}  # confirmed: clubs Pegboard lacks
    result = entries_import_csv(event=event, text=text, user=event.director, clubs=clubs)
    assert _entered(event) == {"Ann Able": "A-1", "Bob Baker": ""}
    ann = Player.objects.get(acc_number="A-1")
    assert (ann.home_club.name, ann.email) == ("Riverside", "ann@example.org")
    assert result.message == "2 players imported. Columns not read: Paid."


def test_an_updated_list_uploaded_again_skips_who_is_entered(director_client, event):
    _upload(director_client, event, b"Name,ACC #\nAnn Able,A-1\nBob Baker,\nCy Cole,C-3\n")
    again = "Player Name;ACC No\nann able;a-1\n  BOB   baker ;\nDot Dealer;D-4\nEd Eyre;\n"
    response = _upload(director_client, event, again.encode(), check_in="on")
    page = response.content.decode()
    assert "2 players imported, 2 already entered (skipped): Ann Able, Bob Baker." in page
    assert set(_entered(event)) == {"Ann Able", "Bob Baker", "Cy Cole", "Dot Dealer", "Ed Eyre"}
    assert Player.objects.count() == 5
    newcomers = Entry.objects.filter(event=event, player__name__in=["Dot Dealer", "Ed Eyre"])
    assert {e.status for e in newcomers} == {Entry.Status.CHECKED_IN}
    audit = AuditEntry.objects.filter(action="entries_import_csv").order_by("pk").last()
    assert "2 already entered (skipped)" in audit.summary


def test_a_list_of_only_players_already_entered_changes_nothing(event):
    entries_import_csv(event=event, text="name\nAnn Able\n", user=event.director)
    result = entries_import_csv(event=event, text="Name\nAnn Able\n", user=event.director)
    assert result.message == "0 players imported, 1 already entered (skipped): Ann Able."
    assert AuditEntry.objects.filter(action="entries_import_csv").count() == 1


def test_a_withdrawn_player_in_the_list_is_restored_not_skipped(event):
    entry = EntryFactory(event=event, player=PlayerFactory(name="Ann Able", acc_number="A-1"))
    entry_withdraw(entry=entry, user=event.director)
    result = entries_import_csv(event=event, text="ACC #;Name\nA-1;Ann Able\n", user=event.director)
    assert result.message == "1 player imported (1 back after a withdrawal)."
    entry.refresh_from_db()
    assert entry.status != Entry.Status.WITHDRAWN


def test_every_problem_is_named_in_one_pass_and_nothing_is_saved(director_client, event):
    entries_import_csv(
        event=event, text="name,acc_number\nAnn Able,A-1\nBob Baker,\n", user=event.director
    )
    PlayerFactory(name="Zed Zero", acc_number="Z-9")
    players, audits = Player.objects.count(), AuditEntry.objects.count()
    text = (
        "Player;ACC #;E-mail\n"
        "Ann Able;A-1;\n"  # 2: entered already
        "Cy Cole;C-3;cy@example.org\n"  # 3: fine
        "Dot Dealer;;dot-at-home\n"  # 4: bad e-mail
        "cy cole;;\n"  # 5: row 3 again
        "Not Zed;Z-9;\n"  # 6: a known player's number
        ";E-5;\n"  # 7: no name
        "Fay Ford;C-3;\n"  # 8: row 3's number
        "bob baker;;\n"  # 9: entered already
        "Gus Gray;G-7;;extra\n"  # 10: a cell past the header
    )
    with pytest.raises(ImportRowErrors) as refused:
        entries_import_csv(event=event, text=text, user=event.director)
    assert [(row, column) for row, column, _ in refused.value.lines] == [
        (4, "E-mail"),
        (5, "Player"),
        (6, "ACC #"),
        (7, "Player"),
        (8, "ACC #"),
        (10, ""),
    ]
    assert refused.value.skipped == [(2, "Ann Able"), (9, "Bob Baker")]

    response = _upload(director_client, event, text.encode())
    page = response.content.decode()
    assert response.status_code == 400
    assert 'id="import-problems"' in page and 'role="alert"' in page and "autofocus" in page
    assert "Nothing was imported." in page and "Fix 6 problems in the file" in page
    for line in (
        "Row 4, E-mail: &#x27;dot-at-home&#x27; is not an e-mail address.",
        "Row 5, Player: Same player as row 3.",
        "Row 6, ACC #: ACC number Z-9 belongs to Zed Zero, not Not Zed.",
        "Row 7, Player: A name is required.",
        "Row 8, ACC #: ACC number C-3 is also on row 3.",
        "Row 10: This row has more cells",
        "Already entered, so they will be skipped: Ann Able (row 2), Bob Baker (row 9).",
    ):
        assert line in page, line
    assert set(_entered(event)) == {"Ann Able", "Bob Baker"}
    assert (Player.objects.count(), AuditEntry.objects.count()) == (players, audits)


def test_a_file_level_problem_is_shown_in_the_same_place(director_client, event):
    response = _upload(director_client, event, b"Club;ACC #\nRiverside;A-1\n")
    page = response.content.decode()
    assert response.status_code == 400 and 'id="import-problems"' in page
    assert "The first row must name the columns" in page
    empty = _upload(director_client, event, b"Name;ACC #\r\n;;\r\n")
    assert "There are no players under the first row." in empty.content.decode()
    assert not Entry.objects.filter(event=event).exists()


def test_the_form_posts_back_to_its_problems(director_client, event):
    page = director_client.get(f"/events/{event.pk}/manage/").content.decode()
    assert f'action="/events/{event.pk}/entries/import/#import-problems"' in page
    assert 'id="import-problems"' not in page  # no problems yet, nothing focused


def test_a_likely_known_player_is_still_asked_about(director_client, event):
    john = PlayerFactory(name="John Smith", acc_number="")
    text = "Full Name;Member #\nJohn Smith;\nNew Person;\n"
    with pytest.raises(ImportChoicesNeeded) as asked:
        entries_import_csv(event=event, text=text, user=event.director)
    assert [(row, name) for row, name, _ in asked.value.rows] == [(2, "John Smith")]
    url = f"/events/{event.pk}/entries/import/"
    assert 'name="match_2"' in director_client.post(url, {"text": text}).content.decode()
    response = director_client.post(url, {"text": text, "match_2": str(john.pk)}, follow=True)
    assert "2 players imported." in response.content.decode()
    assert Entry.objects.get(event=event, player__name="John Smith").player == john


def test_the_api_reads_the_same_files_and_lists_only_new_entries(event):
    api = client_for(event.director)
    url = f"/api/v1/events/{event.pk}/entries/import/"
    first = api.post(url, {"csv": EUROPEAN_EXCEL}, format="json")
    assert first.status_code == 201 and len(first.json()) == 3
    again = api.post(url, {"csv": EUROPEAN_EXCEL + "Dot Dealer;D-4\r\n"}, format="json")
    assert again.status_code == 201
    assert [e["name"] for e in again.json()] == ["Dot Dealer"]
    bad = api.post(url, {"csv": "Name;E-mail\nAnn;ann-at-home\n"}, format="json")
    assert bad.status_code == 400
    assert bad.json()["errors"][0]["field"] == "rows[2].email"


def test_an_error_names_the_file_field(event):
    with pytest.raises(ServiceError) as refused:
        entries_import_csv(event=event, text="", user=event.director)
    assert (refused.value.field, refused.value.code) == ("file", "missing_header")
