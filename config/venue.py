"""Venue mode: Pegboard on a director's laptop for the phones on the venue's own router, when
the hall has no internet (``make venue``, or ``python -m config.venue``).

It runs what production runs, with what a laptop has:

- production settings: DEBUG off, a secret key made once and kept in the venue folder, the
  laptop's own addresses as ``ALLOWED_HOSTS``; ``VENUE=true`` (``config.settings``) serves plain
  HTTP, as no certificate can be had on a router with no internet;
- gunicorn on 0.0.0.0 (every interface: the phones reach the laptop's address on the router),
  one process answering one request at a time: with no broker the jobs (standings, pairings)
  run inside the request that asks for them, and two of them side by side can leave the
  standings a table behind (seen with a threaded server, see the README); the "last heard"
  times and the limits live in that one process's memory, and SQLite takes one writer at a
  time anyway. A venue's hundred phones are a few requests a second (a poll that changed
  nothing is answered before Django);
- static files collected and served by whitenoise;
- SQLite in the venue folder by default, or PostgreSQL with ``--database-url`` (or
  ``DATABASE_URL``);
- no broker: tasks (standings, pairings, e-mails) run in the request that asks for them.

Before serving it migrates the database, collects the static files, asks for the director's
account when the database is new, and prints the address the phones open, as text and as a QR
code. Afterwards ``manage.py push_event`` sends the event to the main site.

This module imports nothing from Django: the settings are read once, from the environment it
builds, by the commands it starts.
"""

from __future__ import annotations

import argparse
import os
import secrets
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Variables that would point a venue laptop at the main site's services: never passed on.
NOT_PASSED = ("CELERY_BROKER_URL", "THROTTLE_CACHE_URL", "DJANGO_SETTINGS_MODULE")


def lan_address() -> str:
    """The laptop's address on its network (the one a phone on the same router reaches), or
    127.0.0.1 when it has none. No packet is sent: connecting a UDP socket only picks the
    interface a datagram would leave by."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere
            return probe.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def secret_key(folder: Path) -> str:
    """The venue's secret key, made on the first run and kept (sessions survive a restart)."""
    path = folder / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


def venue_environment(
    *, folder: Path, address: str, port: int, database_url: str, base: dict[str, str]
) -> dict[str, str]:
    """The environment every command of the venue runs in."""
    env = {k: v for k, v in base.items() if k not in NOT_PASSED}
    hosts = dict.fromkeys([address, "127.0.0.1", "localhost", socket.gethostname()])
    env.update(
        {
            "DEBUG": "false",
            "VENUE": "true",
            "SECRET_KEY": secret_key(folder),
            "ALLOWED_HOSTS": ",".join(hosts),
            "DATABASE_URL": database_url,
            "SITE_URL": f"http://{address}:{port}",
            "STATIC_ROOT": str(folder / "static"),
        }
    )
    return env


def gunicorn_command(*, port: int) -> list[str]:
    return [
        sys.executable, "-m", "gunicorn", "config.wsgi:application",
        "--bind", f"0.0.0.0:{port}", "--workers", "1", "--worker-class", "sync",
    ]  # fmt: skip


def _manage(env: dict[str, str], *args: str, **kwargs) -> None:
    subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True, **kwargs)


def _director_account(env: dict[str, str]) -> None:
    """A new database has no account: the director's is made here (from
    ``DJANGO_SUPERUSER_USERNAME`` and ``DJANGO_SUPERUSER_PASSWORD`` when set, else asked)."""
    if env.get("DJANGO_SUPERUSER_USERNAME") and env.get("DJANGO_SUPERUSER_PASSWORD"):
        email = env.get("DJANGO_SUPERUSER_EMAIL") or "director@venue.invalid"
        _manage(env, "createsuperuser", "--noinput", "--email", email, "-v", "0")
    elif sys.stdin.isatty():
        print("A new venue database: make the director's account.")
        _manage(env, "createsuperuser")
    else:
        print(
            "A new venue database and no terminal to ask for the director's account: run again "
            "with DJANGO_SUPERUSER_USERNAME and DJANGO_SUPERUSER_PASSWORD set."
        )


def _show_address(url: str) -> None:
    print(f"\nPegboard is served at  {url}\n")
    print("Phones on the venue's network open that address (or scan this code):")
    try:
        import segno

        segno.make(url, error="m").terminal(compact=True)
    except Exception as exc:  # a terminal that cannot draw it: the address above is enough
        print(f"(no QR code drawn here: {exc})")
    print(
        "\nDirectors sign in at the same address. Stop with Ctrl+C. Afterwards, send the event "
        "to the main site:\n  python manage.py push_event <event id> --to https://<main site> "
        "--token <API token>\n"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="make venue", description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT") or 8000))
    parser.add_argument(
        "--dir", default=os.environ.get("VENUE_DIR") or str(ROOT / "venue"),
        help="where the venue keeps its SQLite database, secret key and static files",
    )  # fmt: skip
    parser.add_argument(
        "--database-url", default=os.environ.get("DATABASE_URL", ""),
        help="a postgres:// URL to use PostgreSQL (default: SQLite in --dir)",
    )  # fmt: skip
    options = parser.parse_args(argv)
    folder = Path(options.dir).resolve()
    folder.mkdir(parents=True, exist_ok=True)
    database = folder / "pegboard.sqlite3"
    database_url = options.database_url or f"sqlite:///{database}"
    fresh = not options.database_url and not database.exists()
    address = lan_address()
    env = venue_environment(
        folder=folder, address=address, port=options.port, database_url=database_url,
        base=dict(os.environ),
    )  # fmt: skip
    _manage(env, "migrate", "--noinput", "-v", "0")
    _manage(env, "collectstatic", "--noinput", "-v", "0")
    if fresh:
        _director_account(env)
    _show_address(f"http://{address}:{options.port}/")
    sys.stdout.flush()
    os.chdir(ROOT)
    os.execve(sys.executable, gunicorn_command(port=options.port), env)


if __name__ == "__main__":
    main()
