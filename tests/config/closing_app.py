"""A WSGI application for tests/config/test_gunicorn_close.py: "ok" to every request."""


def app(environ, start_response):
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "2")])
    return [b"ok"]
