import os, sys, time
sys.argv = sys.argv[:1]
sys.path.insert(0, os.path.dirname(__file__))
os.environ["BENCH_PLAYERS"] = os.environ.get("BENCH_PLAYERS", "256")
import load  # sets up django
from django.db import connection, reset_queries
from django.test import Client
from django.test.utils import setup_test_environment, CaptureQueriesContext
from tournaments.models import Entry
from tournaments.selectors.player_state import player_state

setup_test_environment()
old = connection.creation.create_test_db(verbosity=0, autoclobber=True)
try:
    event, director = load.build_event()
    reports = load.publish(event, director, 1)
    reports2 = None
    c = Client(HTTP_X_FORWARDED_PROTO="https")
    def cpu(fn, n):
        t = time.process_time(); w = time.perf_counter()
        for i in range(n): fn(i)
        return (time.process_time() - t) * 1000 / n, (time.perf_counter() - w) * 1000 / n
    tokens = [t for t, _ in reports]
    entries = {e.report_token: e for e in Entry.objects.select_related("player", "event")}
    with CaptureQueriesContext(connection) as q:
        player_state(entry=entries[tokens[0]])
    print("player_state queries", len(q))
    print("player_state cpu/wall ms", cpu(lambda i: player_state(entry=entries[tokens[i % 50]]), 200))
    print("part GET cpu/wall ms", cpu(lambda i: c.get(f"/r/{tokens[i % 50]}/?part=live", HTTP_HOST="127.0.0.1"), 200))
    with CaptureQueriesContext(connection) as q:
        c.get(f"/r/{tokens[0]}/?part=live", HTTP_HOST="127.0.0.1")
    print("part GET queries", len(q))
    def post(i):
        t, b = reports[100 + i]
        r = c.post(f"/api/v1/report/{t}/", b, content_type="application/json", HTTP_HOST="127.0.0.1")
        assert r.status_code == 201, r.content
    print("POST cpu/wall ms", cpu(post, 150))
    with CaptureQueriesContext(connection) as q:
        post(150)
    print("POST queries", len(q))

finally:
    connection.close()
    connection.creation.destroy_test_db(old, verbosity=0)
