"""The stack bench/load.py runs against, started as production starts it, and how much CPU
each of its processes used; and the plain HTTP/1.1 client its load generator uses."""

from __future__ import annotations

import asyncio
import gzip
import json
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from django.db import connection

from tests.smtp_sink import SmtpSink

if TYPE_CHECKING:
    from load_gen import Record

ROOT = Path(__file__).resolve().parent.parent
# The product's gunicorn settings plus a probe of how long each request waited for a worker.
PROBE = str(ROOT / "bench" / "gunicorn_probe.py")


def stop_on_terminate() -> None:
    """A ``kill`` (SIGTERM) of the bench ends it as Ctrl-C does: ``SystemExit`` in the main
    thread, so its ``finally`` stops the servers and removes the temporary directory and the
    throw-away database (by default a SIGTERM ended Python at once and left them behind)."""

    def terminated(signum, frame):
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, terminated)


# The stack: Redis, gunicorn, a Celery worker


def redis_command(port: int) -> list[str]:
    """A Redis server of a bench's own on ``port``: loopback only, nothing kept on disk."""
    return ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
            "--appendonly", "no"]  # fmt: skip


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Stack:
    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="pegboard-load-"))
        self.redis_port, self.web_port, self.limit_port = free_port(), free_port(), free_port()
        s = connection.settings_dict
        auth = s["USER"] + (f":{s['PASSWORD']}" if s["PASSWORD"] else "")
        self.env = {
            **{k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE",)},
            "DEBUG": "false",
            "ALLOWED_HOSTS": "127.0.0.1",
            "DATABASE_URL": f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/"
            f"{s['NAME']}",
            "CELERY_BROKER_URL": f"redis://127.0.0.1:{self.redis_port}/0",
            "STATIC_ROOT": str(self.dir / "static"),
            "BENCH_PROBE_DIR": str(self.dir / "probe"),
        }
        (self.dir / "probe").mkdir()
        self.procs: dict[str, subprocess.Popen] = {}
        # Production settings send e-mail by SMTP (never to a log): a real server, here a sink.
        self.mail = SmtpSink()
        self.env.update(self.mail.env())

    def start(self) -> None:
        self.mail.start()
        self._run("redis", redis_command(self.redis_port))
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
            cwd=ROOT, env=self.env, check=True,
        )  # fmt: skip
        extra = shlex.split(os.environ.get("BENCH_GUNICORN_ARGS", ""))
        self._run("web", [sys.executable, "-m", "gunicorn", "config.wsgi:application",
                          "--config", PROBE, "--bind", f"127.0.0.1:{self.web_port}",
                          *extra])  # fmt: skip
        self._run("worker", [sys.executable, "-m", "celery", "-A", "config", "worker",
                             "--concurrency", "1", "--loglevel", "WARNING"])  # fmt: skip
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                status = asyncio.run(fetch(self.web_port, "GET", "/api/v1/health/")).status
                if status == 200 and self._workers_ready():
                    return
            except OSError:
                pass
            time.sleep(0.3)
        raise RuntimeError(f"gunicorn did not answer; its log:\n{self.log('web')[-3000:]}")

    def _workers_ready(self) -> bool:
        """Every gunicorn worker has started and made itself ready (``config.warm``): the first
        answer comes from one worker while the others may still be importing Django, which on
        2 cores took the first seconds of the burst from the workers that were answering (a
        server in production has its workers up long before a round's burst)."""
        log = self.log("web")
        warmed = log.count("objects out of the garbage collector's full walks")  # its last step
        return 0 < log.count("Booting worker with pid") <= warmed

    def start_limit(self) -> None:
        """The minimal endpoint (``bench/limit_app``) on gunicorn with the same settings file
        and arguments as the product, on the same database."""
        extra = shlex.split(os.environ.get("BENCH_GUNICORN_ARGS", ""))
        self._run("limit", [sys.executable, "-m", "gunicorn", "bench.limit_app.wsgi:application",
                            "--config", PROBE, "--bind", f"127.0.0.1:{self.limit_port}",
                            *extra])  # fmt: skip
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                asyncio.run(fetch(self.limit_port, "GET", "/limit/none/"))
                return
            except OSError:
                time.sleep(0.3)
        raise RuntimeError(f"the limit's gunicorn did not answer:\n{self.log('limit')[-3000:]}")

    def _run(self, name: str, command: list[str]) -> None:
        log = open(self.dir / f"{name}.log", "wb")  # noqa: SIM115  (closed by the process' end)
        self.procs[name] = subprocess.Popen(
            command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT
        )

    def log(self, name: str) -> str:
        return (self.dir / f"{name}.log").read_text(errors="replace")

    def waits(self, since: float, until: float) -> list[float]:
        """Milliseconds each request sent between ``since`` and ``until`` (wall clock) waited
        for a gunicorn worker to take it (``bench/gunicorn_probe.py``), both gunicorns."""
        found = []
        for path in (self.dir / "probe").glob("wait-*.txt"):
            for line in path.read_text().splitlines():
                taken, _, waited = line.partition(" ")
                if since <= float(taken) - float(waited) / 1000 <= until:
                    found.append(float(waited))
        return found

    def stop(self) -> None:
        for proc in self.procs.values():
            proc.terminate()
        for proc in self.procs.values():
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
        self.mail.stop()
        shutil.rmtree(self.dir, ignore_errors=True)  # logs and static files: gone after a run


# A plain HTTP/1.1 client on loopback, a new connection a request (as phones behind a
# proxy), so it costs the generator as little as possible.


@dataclass
class Answer:
    status: int
    headers: dict
    payload: bytes  # as sent: compressed when the server said so (``Content-Encoding``)
    ms: float

    @property
    def body(self) -> bytes:
        """The body as a browser reads it: unpacked when it came gzip-compressed (only a body
        the bench reads is unpacked, as a phone would, on its own processor; a spectator's
        page that nobody reads is not, on the cores the server shares)."""
        if self.headers.get("content-encoding") == "gzip":
            return gzip.decompress(self.payload)
        return self.payload


# What Chromium sends: with a script's fetch() that names no Accept (static/js/report-queue.js's
# reports, static/js/live.js's polls), and when a person opens a page. A report must not say
# "text/html": that asks for DRF's browsable page, and config/link_api.py gives such a request
# the site's whole middleware, as it must a browser showing the API.
FETCH_ACCEPT = "*/*"
NAVIGATION_ACCEPT = (
    "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,"
    "*/*;q=0.8,application/signed-exchange;v=b3;q=0.7"
)
# What Chromium says it can unpack, with every request (a page, a fetch() of a script).
ACCEPT_ENCODING = "gzip, deflate, br, zstd"


async def fetch(
    port: int,
    method: str,
    path: str,
    body: dict | None = None,
    etag=None,
    source=None,
    headers: dict | None = None,
    accept: str = FETCH_ACCEPT,
):
    """One request; ``source``: the client's own loopback address (127.0.0.2, ...), so the
    server sees a client other than the venue's 127.0.0.1; ``headers``: more of them;
    ``accept``: what a browser's ``fetch()`` sends by default (the player's page sends its
    reports and polls so), ``NAVIGATION_ACCEPT`` for a page a person opens."""
    data = json.dumps(body).encode() if body is not None else b""
    lines = [
        f"{method} {path} HTTP/1.1",
        "Host: 127.0.0.1",
        "X-Forwarded-Proto: https",  # as the TLS proxy in front of gunicorn says
        "Connection: close",
        f"Accept: {accept}",
        f"Accept-Encoding: {ACCEPT_ENCODING}",
    ]
    if etag:
        lines.append(f"If-None-Match: {etag}")
    lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
    if body is not None:
        lines += ["Content-Type: application/json", f"Content-Length: {len(data)}"]
    start = time.perf_counter()
    local = (source, 0) if source else None
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=local)
    try:
        # When it was written: bench/gunicorn_probe.py times the wait for a worker from it.
        lines.append(f"X-Bench-Sent: {time.time():.6f}")
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + data)
        await writer.drain()
        raw = await reader.read()
    finally:
        writer.close()
    ms = (time.perf_counter() - start) * 1000
    head, _, payload = raw.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    answered = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        answered[name.strip().lower()] = value.strip()
    return Answer(int(status_line.split()[1]), answered, payload, ms)


def _proc_table() -> dict[int, tuple[int, str, float]]:
    """pid -> (parent pid, command name, CPU seconds so far), from /proc. A process's seconds
    include those of its children that have ended (PostgreSQL's connections come and go:
    what an ended one used is counted in the postmaster's)."""
    tick = os.sysconf("SC_CLK_TCK")
    table = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2 :].split()
        used = sum(int(value) for value in fields[11:15])  # utime, stime, cutime, cstime
        table[int(entry.name)] = (int(fields[1]), name, used / tick)
    return table


def cpu_by_part(stack: Stack) -> dict[str, float]:
    """CPU seconds used so far by each part of the stack (a process and its children),
    PostgreSQL (its server processes) and this load generator."""
    table = _proc_table()

    def tree(root: int) -> float:
        total, todo = 0.0, [root]
        while todo:
            pid = todo.pop()
            total += table.get(pid, (0, "", 0.0))[2]
            todo += [child for child, (parent, _, _) in table.items() if parent == pid]
        return total

    parts = {name: tree(proc.pid) for name, proc in stack.procs.items()}
    parts["postgres"] = sum(cpu for _, name, cpu in table.values() if name == "postgres")
    parts["generator"] = time.process_time()
    parts[STOLEN] = stolen_seconds()
    return parts


STOLEN = "stolen"


def stolen_seconds() -> float:
    """CPU seconds the hypervisor gave other machines while this one's were waiting to run
    (``steal`` in ``/proc/stat``, every core): time none of the stack's parts used. A step
    during which it rose was measured on a slower machine than the others."""
    fields = Path("/proc/stat").read_text().splitlines()[0].split()
    return int(fields[8]) / os.sysconf("SC_CLK_TCK") if len(fields) > 8 else 0.0


def print_cpu(
    before: dict[str, float], after: dict[str, float], seconds: float, reports: int = 0
) -> None:
    """Cores each part used on average, and those the hypervisor took from this machine; with
    ``reports``, also the server's CPU milliseconds a report (every part but the generator:
    the web workers, the job worker, PostgreSQL...)."""
    used = {name: after[name] - before.get(name, 0.0) for name in after}
    stolen = used.pop(STOLEN, 0.0)
    shares = ", ".join(f"{name} {cpu / seconds:.2f}" for name, cpu in used.items())
    line = f"  cores used on average: {shares}; stolen by the hypervisor {stolen / seconds:.2f}"
    if reports:
        server = sum(cpu for name, cpu in used.items() if name != "generator")
        line += f"; server CPU {server * 1000 / reports:.1f} ms a report"
    print(line)


def quiet(stack: Stack, most: float = 0.05, longest: float = 20.0, span: float = 2.5) -> float:
    """Waits until the stack's servers (every part but this generator) have used under
    ``most`` cores in each half-second of ``span`` seconds in a row, for at most ``longest``
    seconds; returns the seconds waited. Run before each step: the standings job a step
    leaves behind, or the WAL and statistics of a set-up, would otherwise run during the next
    step, and with the two stacks' steps in turn that next step is often the other stack's.
    ``span``: the standings job starts 2 s after the last result asked for it
    (``jobs.GATHER_SECONDS``), so a shorter quiet can come before it."""
    started, still = time.monotonic(), 0.0
    while True:
        before = cpu_by_part(stack)
        time.sleep(0.5)
        used = {name: cpu - before[name] for name, cpu in cpu_by_part(stack).items()}
        busy = sum(cpu for name, cpu in used.items() if name not in ("generator", STOLEN)) / 0.5
        still = still + 0.5 if busy < most else 0.0
        waited = time.monotonic() - started
        if still >= span or waited >= longest:
            return waited


def processor() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.partition(":")[2].strip()
    return "processor unknown"


def print_waits(waits: list[float], record: Record | None = None) -> None:
    """Where a tail comes from: waiting for a gunicorn worker (server side, from the probe) or
    the generator's own loop running late (client side)."""
    from load_gen import p  # load_gen imports this module's client

    line = (f"  waited for a worker: p50 {p(waits, 50):.0f} ms, p99 {p(waits, 99):.0f} ms, "
            f"max {max(waits, default=0):.0f} ms ({len(waits)} requests)")  # fmt: skip
    if record is not None:
        line += f"; generator loop late p99 {p(record.loop_lag, 99):.0f} ms"
    print(line)


def causes(record: Record, stack: Stack, part: str = "web") -> None:
    if not record.errors:
        return
    print(f"  {len(record.errors)} errors; first ones:")
    for error in record.errors[:5]:
        print(f"    {error}")
    tracebacks = [line for line in stack.log(part).splitlines() if "Error" in line]
    for line in tracebacks[-10:]:
        print(f"    server log: {line}")
