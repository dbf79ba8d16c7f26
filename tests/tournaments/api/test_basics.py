"""API conventions: versioned endpoints, OpenAPI schema and docs, token auth, JSON errors."""

import pytest
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.test import APIClient

from tests.factories import UserFactory
from tournaments.api.errors import exception_handler

pytestmark = pytest.mark.django_db


def test_health_answers_anonymous_visitors():
    response = APIClient().get("/api/v1/health/")
    assert response.status_code == 200
    assert response.json()["status"] == "ok"


def test_schema_and_docs_are_served(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    assert "/api/v1/health/" in schema.json()["paths"]
    docs = client.get("/api/docs/")
    assert docs.status_code == 200
    assert "swagger-ui" in docs.content.decode()


def test_token_authentication():
    UserFactory(username="td", is_staff=True)
    client = APIClient()
    token = client.post(
        "/api/v1/auth/token/", {"username": "td", "password": "correct horse battery"}
    )
    assert token.status_code == 200
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.json()['token']}")
    assert client.post("/api/v1/jobs/health/").status_code == 202


def test_bad_login_names_the_fields():
    response = APIClient().post("/api/v1/auth/token/", {"username": "td"})
    assert response.status_code == 400
    assert {"field": "password", "code": "required", "message": "This field is required."} in (
        response.json()["errors"]
    )


def test_errors_name_the_field_and_the_rule():
    class Margin(serializers.Serializer):
        margin = serializers.IntegerField(min_value=1, max_value=121)

    form = Margin(data={"margin": 130})
    with pytest.raises(ValidationError) as caught:
        form.is_valid(raise_exception=True)
    body = exception_handler(caught.value, {}).data
    assert body == {
        "errors": [
            {
                "field": "margin",
                "code": "max_value",
                "message": "Ensure this value is less than or equal to 121.",
            }
        ]
    }
