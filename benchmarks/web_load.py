"""Web app under load: concurrent clients on the Voltorb solve endpoint, and hostile requests.

    .venv/bin/python benchmarks/web_load.py [--clients 50] [--seconds 60] [--workers 2] [--budget 2]

It needs the test extra (``pip install -e ".[test]"``: its HTTP client, httpx2); the Quick
start's plain install does not have it, and the script says so.

Starts ``gamelab serve`` on a free localhost port (its own process, as a user would run it),
then for ``--seconds`` runs ``--clients`` concurrent clients, each posting level-8 positions to
``/api/voltorb/solve`` back to back (a mix of fresh clue sets and the same boards with a few
tiles already flipped, drawn from the game's generator with a fixed seed), while a probe asks
``/api/health`` twice a second. Reports requests/s, latency p50/p99/max, errors (anything but
200), how many answers were the labelled fallback, and the probe's latency beside the goal
(p99 of solve under budget + 0.5 s; the probe under 100 ms).

The clients speak plain HTTP/1.1 over asyncio streams (keep-alive, one connection each), so
the load generator costs little CPU next to the server it measures on a small machine (its CPU
per request is printed). The probe that the goal is about runs in a process
of its own, on a fresh connection each time as a person's browser would; the same probe from
the load generator's event loop is shown beside it (it adds that loop's own delays).

Then the safety battery: oversized bodies, malformed JSON, invalid UTF-8 and unicode garbage,
negative and huge numbers, wrong types, deep nesting: each must get a 4xx with a message (never
a 500, never a hang). Only localhost is contacted; every loop is bounded in time and count.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time

import numpy as np
from web_server import free_port, stop

from gamelab.voltorb.rules import VoltorbSetting


def positions(count: int, seed: int) -> list[dict]:
    """Level-8 solve requests: fresh clue sets and the same boards with 1-3 safe flips made."""
    from gamelab.voltorb.rules import Clues, generate_board

    rng = np.random.default_rng(seed)
    out = []
    for i in range(count):
        board, _ = generate_board(VoltorbSetting(), rng)
        rows, cols = Clues.from_board(board).as_text()
        revealed = []
        if i % 2:
            flat = board.reshape(-1)
            ones = [t for t in range(25) if flat[t] == 1]
            for t in rng.permutation(ones)[: int(rng.integers(1, 4))]:
                revealed.append(f"{t // 5 + 1},{t % 5 + 1}=1")
        out.append({"rows": rows, "cols": cols, "level": 8, "revealed": revealed})
    return out


def pct(values: list[float], q: float) -> float:
    return float(np.percentile(values, q)) if values else float("nan")


class Connection:
    """One keep-alive HTTP/1.1 connection: POST a JSON body, read status and JSON answer."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def post(self, path: str, body: dict) -> tuple[int, dict]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        payload = json.dumps(body).encode()
        self.writer.write(
            f"POST {path} HTTP/1.1\r\nHost: {self.host}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(payload)}\r\n\r\n".encode()
            + payload
        )
        assert self.reader is not None
        head = await self.reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
        length = int(next(v for k, v in headers.items() if k.lower() == "content-length"))
        data = await self.reader.readexactly(length)
        if any(k.lower() == "connection" and v.lower() == "close" for k, v in headers.items()):
            self.close()
        return status, json.loads(data) if data else {}

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


PROBE = """
import http.client, json, sys, time
host, port, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
out, stop = [], time.monotonic() + seconds
while time.monotonic() < stop:
    t = time.perf_counter()
    c = http.client.HTTPConnection(host, port, timeout=30)
    c.request("GET", "/api/health")
    ok = c.getresponse().read() is not None
    out.append(time.perf_counter() - t)
    c.close()
    time.sleep(0.5)
print(json.dumps(out))
"""


async def load(base: str, bodies: list[dict], clients: int, seconds: float) -> dict:
    import httpx2

    host, port = base.split("//")[1].split(":")
    probe_process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", PROBE, host, port, str(seconds), stdout=asyncio.subprocess.PIPE
    )
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    failures: list[str] = []
    fallbacks = 0
    notes: dict[str, int] = {}
    probe: list[float] = []
    stop = time.monotonic() + seconds
    limits = httpx2.Limits(max_connections=clients + 5)
    async with httpx2.AsyncClient(base_url=base, timeout=30, limits=limits) as http:

        async def client(k: int) -> None:
            nonlocal fallbacks
            rnd = random.Random(k)
            connection = Connection(host, int(port))
            while time.monotonic() < stop:
                body = rnd.choice(bodies)
                t = time.perf_counter()
                try:
                    status, answer = await asyncio.wait_for(
                        connection.post("/api/voltorb/solve", body), 30
                    )
                except Exception as exc:  # a refused or dropped connection is an error too
                    failures.append(type(exc).__name__)
                    connection.close()
                    continue
                latencies.append(time.perf_counter() - t)
                statuses[status] = statuses.get(status, 0) + 1
                note = answer.get("note") if status == 200 else None
                if note:
                    fallbacks += 1
                    kind = "busy" if note.startswith("server busy") else "timed out"
                    notes[kind] = notes.get(kind, 0) + 1
            connection.close()

        async def prober() -> None:
            while time.monotonic() < stop:
                t = time.perf_counter()
                r = await http.get("/api/health")
                if r.status_code == 200:
                    probe.append(time.perf_counter() - t)
                await asyncio.sleep(0.5)

        start = time.monotonic()
        cpu = time.process_time()
        await asyncio.gather(prober(), *(client(k) for k in range(clients)))
        elapsed = time.monotonic() - start
        cpu = time.process_time() - cpu
    out, _ = await probe_process.communicate()
    own_probe = json.loads(out)
    ok = statuses.get(200, 0)
    return {
        "requests": len(latencies),
        "seconds": elapsed,
        "statuses": statuses,
        "failures": len(failures),
        "errors": len(latencies) - ok + len(failures),
        "fallbacks": fallbacks,
        "notes": notes,
        "latencies": latencies,
        "probe": own_probe,
        "loop_probe": probe,
        "client_cpu": cpu,
    }


def safety(base: str) -> list[tuple[str, int, str]]:
    """(case, status, detail) for each hostile request."""
    import httpx2

    good = {"rows": "4,2 8,0 4,2 4,2 5,1", "cols": "6,1 5,0 5,2 4,3 5,1", "level": 2}
    raw = {
        "1 MB body": json.dumps({**good, "rows": "x" * 1_000_000}).encode(),
        "65 KB body": b" " * (65 * 1024) + json.dumps(good).encode(),
        "malformed JSON": b'{"rows": "4,2", ',
        "not JSON at all": b"\x00\x01\x02 hello",
        "invalid UTF-8": b'{"rows": "\xff\xfe\xfd", "cols": "1"}',
        "lone surrogate": b'{"rows": "\\ud800", "cols": "\\udfff", "level": 8}',
        "deep nesting": b"[" * 5000 + b"]" * 5000,
        "top-level array": b"[1, 2, 3]",
    }
    structured = {
        "unicode garbage clues": {**good, "rows": "☃,☃ \u0000,1 ∞,2 ４,２ 5,1", "cols": "🎲"},
        "negative sums": {**good, "rows": "-4,2 8,0 4,2 4,2 5,1"},
        "huge level": {**good, "level": 10**50},
        "negative level": {**good, "level": -3},
        "float level": {**good, "level": 2.5},
        "huge clue numbers": {**good, "rows": f"{10**30},2 8,0 4,2 4,2 5,1"},
        "wrong types": {"rows": 5, "cols": None, "level": "eight"},
        "too many revealed": {**good, "revealed": ["1,1=1"] * 26},
        "revealed off the board": {**good, "revealed": ["9,-1=7"]},
        "unknown field (a path)": {**good, "file": "/etc/passwd"},
        "practice huge seed": ("/api/voltorb/practice/new", {"level": 1, "seed": 10**40}),
        "practice negative seed": ("/api/voltorb/practice/new", {"level": 1, "seed": -1}),
        "practice 26 flips": (
            "/api/voltorb/practice/play",
            {"level": 1, "seed": 1, "flips": [[1, 1]] * 26},
        ),
    }
    out = []
    cases = [
        (
            name,
            "/api/voltorb/solve",
            {"content": content, "headers": {"content-type": "application/json"}},
        )
        for name, content in raw.items()
    ]
    for name, body in structured.items():
        path, payload = body if isinstance(body, tuple) else ("/api/voltorb/solve", body)
        cases.append((name, path, {"json": payload}))
    for name, path, kwargs in cases:
        with httpx2.Client(base_url=base, timeout=30) as http:  # a fresh connection per case
            try:
                r = http.post(path, **kwargs)
                out.append((name, r.status_code, _detail(r)))
            except httpx2.HTTPError as exc:
                out.append((name, 0, f"{type(exc).__name__}: {exc}"))
    return out


def _detail(r) -> str:
    try:
        return str(r.json().get("detail", ""))[:90]
    except Exception:
        return r.text[:90]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--workers", type=int, default=2, help="solver processes of the server")
    parser.add_argument("--budget", type=float, default=2.0, help="the server's time budget (s)")
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    try:
        import httpx2  # noqa: F401
    except ImportError:
        sys.exit(
            "error: benchmarks/web_load.py needs the test extra (its HTTP client, httpx2): "
            'pip install -e ".[test]"'
        )
    if args.seconds > 600 or args.clients > 200:
        sys.exit("error: at most 600 s and 200 clients")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {**os.environ}
    env.setdefault("GAMELAB_CACHE", os.path.join(tempfile.gettempdir(), "gamelab-web-load-cache"))
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gamelab.cli",
            "serve",
            "--port",
            str(port),
            "--workers",
            str(args.workers),
            "--budget",
            str(args.budget),
        ],
        env=env,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        import httpx2

        deadline = time.monotonic() + 300
        while True:
            try:
                if httpx2.get(base + "/api/health", timeout=2).status_code == 200:
                    break
            except httpx2.HTTPError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                server.kill()
                sys.exit(f"error: the server did not start: {server.communicate()[1][-2000:]}")
            time.sleep(0.5)
        bodies = positions(args.positions, args.seed)
        print(
            f"machine load average (1, 5, 15 min) at the start: "
            f"{', '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores"
        )
        print(f"server: gamelab serve --workers {args.workers} --budget {args.budget} on {base}")
        print(
            f"load: {args.clients} clients x {args.seconds:g} s, {len(bodies)} level-8 positions "
            "(half with 1-3 tiles flipped)"
        )
        res = asyncio.run(load(base, bodies, args.clients, args.seconds))
        lat, probe = res["latencies"], res["probe"]
        goal = args.budget + 0.5
        print(
            f"requests: {res['requests']} in {res['seconds']:.1f} s = {res['requests'] / res['seconds']:.1f} req/s"
        )
        print(
            f"latency: p50 {pct(lat, 50):.3f} s, p99 {pct(lat, 99):.3f} s, max {max(lat):.3f} s "
            f"(goal p99 < budget + 0.5 s = {goal:g} s: {'met' if pct(lat, 99) < goal else 'NOT met'})"
        )
        print(
            f"errors: {res['errors']} (statuses {res['statuses']}, connection failures {res['failures']})"
        )
        print(
            f"answers with the labelled fallback: {res['fallbacks']} "
            f"({100 * res['fallbacks'] / max(1, res['requests']):.1f} %: {res['notes']})"
        )
        print(
            f"probe /api/health while loaded (own process): {len(probe)} requests, "
            f"p50 {1000 * pct(probe, 50):.1f} ms, p99 {1000 * pct(probe, 99):.1f} ms, "
            f"max {1000 * max(probe):.1f} ms (goal < 100 ms: {'met' if max(probe) < 0.1 else 'NOT met'})"
        )
        loop_probe = res["loop_probe"]
        print(
            f"  the same probe from the load generator's loop: p50 {1000 * pct(loop_probe, 50):.1f} ms, "
            f"p99 {1000 * pct(loop_probe, 99):.1f} ms"
        )
        print(
            f"load generator CPU: {res['client_cpu']:.1f} s ({1000 * res['client_cpu'] / max(1, res['requests']):.2f} ms "
            "per request)"
        )
        print(
            f"machine load average (1, 5, 15 min) at the end: {', '.join(f'{x:.2f}' for x in os.getloadavg())}"
        )
        print("\nsafety (each must be 4xx with a message):")
        bad = 0
        for name, status, detail in safety(base):
            ok = 400 <= status < 500 and detail
            bad += not ok
            print(f"  {'ok ' if ok else 'BAD'} {status} {name:24s} {detail}")
        print(f"safety: {bad} bad answers")
        alive = httpx2.get(base + "/api/health", timeout=5).status_code == 200
        print(f"server still answering after all that: {alive}")
    finally:
        stop(server)


if __name__ == "__main__":
    main()
