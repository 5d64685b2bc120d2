"""`gamelab report`: run every game's report section and write the report folder.

A game contributes a section by having a module ``gamelab.<game>.report`` with a ``TITLE``
string and ``build(section: Section, ctx: ReportContext) -> None``; so does each entry of
:data:`SECTIONS` after the games (the environments' leaderboard, ``gamelab.envs.report``). A
section that raises is recorded as failed (with its error) and the report still completes.

The report is written aside and replaces the previous one when it is complete. When the output
folder holds no complete report yet (a first run), each finished section is published at once:
``index.html`` shows the sections done and lists those still computing, so the first figures
can be read while the slower sections (numba compiling their kernels) are still running.
"""

from __future__ import annotations

import datetime as dt
import importlib
import importlib.util
import json
import os
import re
import shutil
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from rich.table import Table

from gamelab import GAMES, __version__
from gamelab.cli_common import console, err_console, print_json
from gamelab.core.parallel import Backend
from gamelab.core.report import (
    INCOMPLETE,
    STAGING,
    Report,
    ReportContext,
    Section,
    publish,
    staging_folder,
)
from gamelab.core.results import ResultStore

#: the report's sections in order: each game's, then the environments' leaderboard
SECTIONS = (*GAMES, "envs")


@dataclass
class SectionSummary:
    game: str
    status: str  # ok, failed, or why nothing was computed ("not computed in the quick report")
    seconds: float
    headline: str


@dataclass
class ReportSummary:
    """What `gamelab report` wrote (``--json`` prints it)."""

    index: str  # the index.html written
    results: str  # the results.json written
    seconds: float
    sections: list[SectionSummary]


class _LazySection:
    """A game's report module, imported only when its section runs (importing every game's
    libraries first cost seconds before the first section could start). TITLE is read from the
    module's source (a plain string assignment), else from the imported module."""

    def __init__(self, name: str, origin: str | None) -> None:
        self.name = name
        found = None
        if origin:
            try:
                found = _TITLE.search(Path(origin).read_text(encoding="utf-8"))
            except OSError:
                found = None
        self.TITLE = found.group(1) if found else getattr(self._module(), "TITLE", name)

    def _module(self) -> ModuleType:
        return importlib.import_module(self.name)

    def build(self, section: Section, ctx: ReportContext) -> None:
        self._module().build(section, ctx)


_TITLE = re.compile(r"""^TITLE\s*=\s*"([^"\\]*)"\s*$""", re.MULTILINE)


def section_modules() -> dict[str, Any]:
    """The games (and other sections) that have a report section, in the standard order (each
    a module-like object with ``TITLE`` and ``build``, imported when its section runs)."""
    found = {}
    for game in SECTIONS:
        name = f"gamelab.{game}.report"
        spec = importlib.util.find_spec(name)
        if spec is not None:
            found[game] = _LazySection(name, spec.origin)
    return found


def run_report(
    *,
    out: Path,
    quick: bool,
    only: str | None,
    seed: int,
    workers: int | None,
    cluster: str | None,
    json_out: bool,
    quiet: bool,
) -> ReportSummary:
    # the options first (cheap), then the sections (importing every game takes seconds)
    backend = Backend(workers=workers, cluster=cluster, quiet=quiet or json_out)
    wanted = list(SECTIONS)
    if only is not None:
        wanted = [g.strip() for g in only.split(",") if g.strip()]
        if not wanted:
            raise ValueError(f"--only names no game; give some of {', '.join(SECTIONS)}")
        unknown = [g for g in wanted if g not in SECTIONS]
        if unknown:
            raise ValueError(
                f"unknown game(s) {', '.join(unknown)}; allowed: {', '.join(SECTIONS)}"
            )
    backend.check_reachable()  # a missing scheduler fails now, not once per section
    modules = section_modules()
    missing = [g for g in wanted if g not in modules]
    if only is not None and missing:
        raise ValueError(
            f"no report section for {', '.join(missing)} yet; available: {', '.join(modules) or 'none'}"
        )
    modules = {g: m for g, m in modules.items() if g in wanted}
    try:  # refuse an unusable output folder before any section runs
        out.mkdir(parents=True, exist_ok=True)
        staged = staging_folder(out)  # the new report is written aside (see _publish)
    except OSError as exc:
        raise ValueError(f"cannot write the report to {out}: {exc.strerror or exc}") from None
    try:
        summary = _write_report(staged, out, modules, quick, seed, backend, json_out, quiet)
    finally:
        if staged.exists():  # interrupted, or a report that was not published
            shutil.rmtree(staged, ignore_errors=True)
    if any(s.status == "failed" for s in summary.sections):
        raise SystemExit(1)
    return summary


def _write_report(
    staged: Path,
    out: Path,
    modules: dict[str, Any],
    quick: bool,
    seed: int,
    backend: Backend,
    json_out: bool,
    quiet: bool,
) -> ReportSummary:
    started = time.monotonic()
    progressive = not _has_complete_report(out)
    report = Report(
        staged,
        title="gamelab report" + (" (quick)" if quick else ""),
        meta={
            "generated": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "gamelab": __version__,
            "mode": "quick" if quick else "full",
            "seed": seed,
            "backend": backend.describe(),
        },
    )
    titles = {game: getattr(module, "TITLE", game) for game, module in modules.items()}
    with ResultStore() as store:
        ctx = ReportContext(quick=quick, seed=seed, backend=backend, store=store)
        for n, (game, module) in enumerate(modules.items(), 1):
            section = report.section(game, titles[game])
            if not (quiet or json_out):
                err_console.print(f"[bold]{section.title}[/bold] ({n} of {len(modules)}) …")
            t0 = time.monotonic()
            try:
                module.build(section, ctx)
            except Exception as exc:  # one broken section must not hide the others
                section.status = "failed"
                section.headline = f"{type(exc).__name__}: {exc}"
                section.text("This section failed:\n\n" + traceback.format_exc())
            except BaseException:  # interrupted: a published partial report says so
                if progressive and n > 1:
                    report.sections.pop()
                    report.pending, report.stopped = list(titles.values())[n - 1 :], "interrupted"
                    report.write(out)
                raise
            section.seconds = time.monotonic() - t0
            if progressive and n < len(modules):
                report.pending = list(titles.values())[n:]
                index = _publish_section(report, section, out)
                if n == 1 and not (quiet or json_out):
                    err_console.print(
                        f"{index}: {section.title} is ready to read; the page is written "
                        "again as each section finishes"
                    )
    report.pending = []
    report.meta["seconds"] = round(time.monotonic() - started, 1)
    report.write()
    failed = any(s.status == "failed" for s in report.sections)
    index, kept = _publish(staged, out, failed=failed and not progressive)
    summary = ReportSummary(
        index=str(index),
        results=str(index.parent / "results.json"),
        seconds=report.meta["seconds"],
        sections=[
            SectionSummary(s.key, s.status, round(s.seconds, 1), s.headline)
            for s in report.sections
        ],
    )
    if json_out:
        print_json(summary)
    elif not quiet:
        table = Table(title=report.title)
        for col in ("game", "status", "seconds", "headline"):
            table.add_column(col)
        for s in report.sections:
            table.add_row(s.title, s.status, f"{s.seconds:.1f}" if s.computed else "—", s.headline)
        if not report.sections:
            console.print("No game sections are installed yet; the report says so.")
        else:
            console.print(table)
        console.print(
            f"Wrote {index} and {index.parent / 'results.json'} in {report.meta['seconds']} s."
        )
    if kept is not None and not json_out:
        err_console.print(
            f"some sections failed: the previous report {kept} is kept; this run's is {index}"
        )
    return summary


def _has_complete_report(out: Path) -> bool:
    """Whether `out` holds a report that a run's partial pages must not replace."""
    try:
        results = json.loads((out / "results.json").read_text())
    except (OSError, ValueError):
        return (out / "index.html").exists()
    return not (isinstance(results, dict) and results.get("meta", {}).get("pending"))


def _publish_section(report: Report, section: Section, out: Path) -> Path:
    """Put one finished section (its folder in the staging folder) into `out`, and out's
    index.html and results.json with the sections so far; returns out/index.html."""
    target = out / section.key
    old = out / f"{STAGING}-old-{section.key}"
    if old.exists():
        shutil.rmtree(old)
    if target.exists():
        os.replace(target, old)
    shutil.copytree(section.folder, target)
    if old.exists():
        shutil.rmtree(old)
    return report.write(out)


def _publish(staged: Path, out: Path, failed: bool) -> tuple[Path, Path | None]:
    """Put the report written in `staged` in place: into `out`, replacing the previous one,
    unless a section failed and `out` has a report already; then it goes to out/incomplete/ and
    the previous report is kept. Returns (the new index.html, the kept one or None)."""
    previous = out / "index.html"
    incomplete = out / INCOMPLETE
    if failed and previous.exists():
        if incomplete.exists():
            shutil.rmtree(incomplete)
        os.replace(staged, incomplete)
        return incomplete / "index.html", previous
    index = publish(staged, out)
    if incomplete.is_dir():  # an older failed run's report, now superseded
        shutil.rmtree(incomplete)
    return index, None
