"""``gamelab serve``: run the web app with uvicorn."""

from __future__ import annotations

from pathlib import Path

from gamelab.web.common import Settings

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
    """Serve until interrupted (Ctrl-C). `pack` is the lattice game's level pack (checked now)."""
    import uvicorn

    from gamelab.web.app import create_app

    if not 0 < port < 65536:
        raise ValueError(f"--port must be 1-65535, got {port}")
    options: dict[str, str] = {}
    if pack is not None:
        from gamelab.lattice.puzzle import load_pack

        load_pack(pack)  # a file that is not a pack is refused before the server starts
        options["lattice_pack"] = str(Path(pack).resolve())
    ready = start_message(host, port, workers)
    ready += (
        "\nwarming up the solvers in the background (loading their kernels; the first start "
        "after installing compiles them: /api/health lists what is still warming)"
    )
    settings = Settings(
        workers=workers,
        budget=budget,
        ready_message=ready,
        options=options,
        background_warmup=True,
    )
    app = create_app(settings)
    uvicorn.run(app, host=host, port=port, log_level="warning", server_header=False)
