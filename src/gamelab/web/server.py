"""``gamelab serve``: run the web app with uvicorn."""

from __future__ import annotations

import sys
from pathlib import Path

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


def start_message(host: str, port: int, workers: int) -> str:
    """What ``gamelab serve`` says on start: where it listens and who can reach it."""
    shown = f"[{host}]" if ":" in host else host
    lines = [f"gamelab web app: http://{shown}:{port}/  ({workers} solver processes)"]
    if host in LOCAL_HOSTS:
        lines.append("listening on localhost only; use --host 0.0.0.0 to serve other machines")
    else:
        lines.append(
            f"listening on {host}: reachable from other machines; put a reverse proxy with TLS "
            "in front of it"
        )
    lines.append("stop with Ctrl-C")
    return "\n".join(lines)


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    workers: int = 2,
    budget: float = 2.0,
    pack: Path | None = None,
) -> None:
    """Serve until interrupted (Ctrl-C). `pack` is the lattice game's level pack (checked now).

    The server listens at once (:class:`~gamelab.web.starting.StartingApp` answers while the
    web app and its games are imported), then warms the solvers in the background."""
    import uvicorn

    from gamelab import __version__
    from gamelab.web.headers import SECURITY_HEADERS
    from gamelab.web.starting import StartingApp

    if not 0 < port < 65536:
        raise ValueError(f"--port must be 1-65535, got {port}")
    options: dict[str, str] = {}
    if pack is not None:
        from gamelab.lattice.puzzle import load_pack

        load_pack(pack)  # a file that is not a pack is refused before the server starts
        options["lattice_pack"] = str(Path(pack).resolve())

    def build():  # in a thread, while the server already answers
        from gamelab.web.app import create_app
        from gamelab.web.common import Settings

        settings = Settings(workers=workers, budget=budget, options=options, background_warmup=True)
        return create_app(settings)

    ready = start_message(host, port, workers)
    ready += (
        "\nwarming up the solvers in the background (loading their kernels; the first start "
        "after installing compiles them: /api/health lists what is still warming)"
    )
    print(ready, file=sys.stderr, flush=True)
    app = StartingApp(build, __version__, SECURITY_HEADERS)
    uvicorn.run(app, host=host, port=port, log_level="warning", server_header=False)
