"""``FieldsKept``: a hot input serializer's fields are built once per thread and handed to each
new instance; every validation is still its own."""

from __future__ import annotations

import threading

from tournaments.api.serializers_results import ReportSerializer


def test_each_validation_is_its_own_with_the_same_fields():
    refused = ReportSerializer(data={"result": "drew", "margin": -1})
    assert not refused.is_valid()
    assert set(refused.errors) == {"result", "margin"}

    taken = ReportSerializer(data={"result": "won", "margin": 12})
    assert taken.is_valid(), taken.errors
    assert taken.validated_data == {"result": "won", "margin": 12, "preview": False}
    assert taken.fields["margin"] is refused.fields["margin"], "built once in this thread"

    missing = ReportSerializer(data={"result": "lost"})
    assert not missing.is_valid()
    assert set(missing.errors) == {"margin"}
    unknown = ReportSerializer(data={"result": "won", "margin": 3, "colour": "red"})
    assert not unknown.is_valid()
    assert set(unknown.errors) == {"colour"}
    assert "it takes game, margin, preview, result" in str(unknown.errors["colour"])


def test_a_field_belongs_to_the_instance_that_asked_last():
    first, second = ReportSerializer(data={}), ReportSerializer(data={})
    assert first.fields["result"].parent is first
    assert second.fields["result"].parent is second


def test_another_thread_builds_its_own():
    here = ReportSerializer(data={}).fields["margin"]
    there = []
    thread = threading.Thread(
        target=lambda: there.append(ReportSerializer(data={}).fields["margin"])
    )
    thread.start()
    thread.join()
    assert there[0] is not here
    assert there[0].max_value == here.max_value == 9999
