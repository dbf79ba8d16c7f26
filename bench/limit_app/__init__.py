"""The stack's own limit (issue 24): a minimal Django + DRF project that does what a player's
report must do at least, served by the same gunicorn settings (``gunicorn.conf.py``) on the
same PostgreSQL database, and stepped by the same generator as Pegboard in ``bench/load.py``.

``POST /limit/<token>/`` with ``{"result": "won", "margin": 12}``: the token looked up (and its
row locked, as a report locks its seat), one row inserted in one transaction, a small JSON 201.
Four statements: BEGIN, SELECT ... FOR UPDATE, INSERT ... RETURNING, COMMIT. For the burst
under polling, ``GET /limit/poll/<token>/`` is a phone's poll at its least (the token and its
version in one statement, 304 or a small part, the product's pace) and ``GET
/limit/standings/`` a spectator's page (bytes kept in memory, the product's size). Its two tables
(``bench_limit_token``, ``bench_limit_line``) are made by ``tables_create`` in the bench's
throw-away database: never in the product's URLs or migrations."""

TOKENS = "bench_limit_token"
LINES = "bench_limit_line"


def tables_create(cursor, tokens: int) -> None:
    """The two tables, and ``tokens`` tokens ``limit-0`` ... (one per report the bench sends)."""
    cursor.execute(
        f"CREATE TABLE {TOKENS} (id serial PRIMARY KEY, token text NOT NULL UNIQUE);"
        f"CREATE TABLE {LINES} (id bigserial PRIMARY KEY,"
        f" token_id integer NOT NULL REFERENCES {TOKENS} (id), result text NOT NULL,"
        " margin integer NOT NULL, created_at timestamptz NOT NULL DEFAULT now());"
        f"CREATE INDEX ON {LINES} (token_id)"
    )
    cursor.execute(
        f"INSERT INTO {TOKENS} (token) SELECT 'limit-' || n FROM generate_series(0, %s) n",
        [tokens - 1],
    )
