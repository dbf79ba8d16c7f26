"""Production's static storage (``config.static_storage``) keeps each file's address once
worked out, and forgets them when ``collectstatic`` writes a new manifest."""

from __future__ import annotations

from pathlib import Path
from unittest import mock

import pytest
from django.core.files.storage import FileSystemStorage
from whitenoise.storage import CompressedManifestStaticFilesStorage

from config.static_storage import StaticStorage


def _collect(storage: StaticStorage, source, text: str) -> None:
    """What ``collectstatic`` does: the file copied into the storage, then post-processed."""
    (source / "app.js").write_text(text)
    (Path(storage.location) / "app.js").write_text(text)
    found = {"app.js": (FileSystemStorage(location=str(source)), "app.js")}
    list(storage.post_process(found))


@pytest.fixture
def storage(tmp_path, settings):
    settings.DEBUG = False
    source = tmp_path / "source"
    source.mkdir()
    (tmp_path / "root").mkdir()
    made = StaticStorage(location=str(tmp_path / "root"), base_url="/static/")
    _collect(made, source, "one();")
    return made, source


def test_the_address_is_the_hashed_files_and_worked_out_once(storage):
    made, _ = storage
    first = made.url("app.js")
    assert first.startswith("/static/app.") and first.endswith(".js") and first != "/static/app.js"

    with mock.patch.object(CompressedManifestStaticFilesStorage, "url") as parent:
        assert made.url("app.js") == first
    parent.assert_not_called()


def test_a_new_manifest_gives_the_new_address(storage):
    made, source = storage
    before = made.url("app.js")

    _collect(made, source, "two();")

    assert made.url("app.js") != before


def test_a_file_not_in_the_manifest_is_refused_every_time(storage):
    made, _ = storage
    for _ in range(2):
        with pytest.raises(ValueError, match="Missing staticfiles manifest entry"):
            made.url("nowhere.js")
