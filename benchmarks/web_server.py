"""A ``gamelab serve`` for the web benchmarks: started on a free port (or one already running),
asked over HTTP, stopped at the end.

    with served(args.url, "--workers", "1") as server:
        seconds, answer, status = request(server.base, "/api/health")
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import IO, Any


def free_port() -> int:
    """A TCP port of this machine that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def request(
    base: str, path: str, body: dict | None = None, timeout: float = 600
) -> tuple[float, Any, int]:
    """Seconds, parsed answer and HTTP status of one request (GET when `body` is None; an error
    status is an answer too)."""
    req = urllib.request.Request(
        base + path,
        data=None if body is None else json.dumps(body).encode(),
        method="GET" if body is None else "POST",
        headers={"content-type": "application/json"},
    )
    t0 = time.perf_counter()
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            payload, status = json.loads(resp.read()), resp.status
    except urllib.error.HTTPError as err:
        payload, status = json.loads(err.read() or b"null"), err.code
    return time.perf_counter() - t0, payload, status


@dataclass
class Server:
    """Where the server answers; the process and its log when :func:`served` started it."""

    base: str
    process: subprocess.Popen | None = None
    log: IO[bytes] | None = None

    def said(self) -> str:
        """What the server wrote so far ('' for one this benchmark did not start)."""
        if self.log is None:
            return ""
        self.log.seek(0)
        return self.log.read().decode()

    def stopped(self) -> bool:
        return self.process is not None and self.process.poll() is not None


def stop(process: subprocess.Popen, seconds: float = 30) -> None:
    """End a server (or any child): terminate it, kill it if it is still there after
    `seconds`."""
    process.terminate()
    try:
        process.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@contextmanager
def served(url: str | None, *options: str, env: dict[str, str] | None = None) -> Iterator[Server]:
    """The server at `url`, or a ``gamelab serve --port <free> *options`` of this interpreter
    (environment `env`, this one's by default), terminated (killed after 30 s) at the end."""
    if url:
        yield Server(url.rstrip("/"))
        return
    port = free_port()
    log = tempfile.TemporaryFile()
    command = [sys.executable, "-m", "gamelab.cli", "serve", "--port", str(port), *options]
    process = subprocess.Popen(command, stdout=log, stderr=log, env=env or os.environ.copy())
    try:
        yield Server(f"http://127.0.0.1:{port}", process, log)
    finally:
        stop(process)
        log.close()
