"""Write tables (Markdown + JSON) and plots (matplotlib, Agg, PNG), and assemble an HTML report.

A :class:`Report` is a folder. Each game adds a :class:`Section`; a section collects prose,
tables, figures, a one-line headline and machine-readable data. ``Report.write()`` produces
``index.html`` (all sections, tables as HTML, plots inlined by reference), ``results.json`` (every
table and datum) and one ``<section>/<table>.md`` / ``.json`` per table and ``.png`` per figure.

    report = Report(Path("report"), title="gamelab report")
    sec = report.section("yatzy", "Yatzy")
    sec.table("rules", ["rules", "E[score]"], [["yatzy", 248.44]], caption="Optimal play")
    fig, ax = new_figure(); ax.plot([1, 2]); sec.figure("dist", fig, caption="...")
    report.write()
"""

from __future__ import annotations

import datetime as _dt
import html
import math
import os
import re
import shutil
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from gamelab.core.files import FIGURE_SUFFIXES, temporary_sibling, write_text_atomic
from gamelab.core.serialise import to_json


def json_text(obj: Any) -> str:
    """results.json text: the one serialiser (:mod:`gamelab.core.serialise`), indented."""
    return to_json(obj, indent=2)


#: A table cell without a value (None, NaN, an empty string) shows this, explained by a note
#: under its table (:meth:`Section.table`'s `missing`).
MISSING = "—"
#: The note when a section gives none.
MISSING_NOTE = "no value for this row"


def is_missing(value: Any) -> bool:
    """Whether a table cell has no value to show."""
    if value is None:
        return True
    if isinstance(value, (float, np.floating)):
        return math.isnan(float(value))
    return isinstance(value, str) and not value.strip()


def format_cell(value: Any) -> str:
    if is_missing(value):
        return MISSING
    if isinstance(value, (float, np.floating)):
        v = float(value)
        if not math.isfinite(v):
            return "∞" if v > 0 else "−∞"
        if v != 0 and (abs(v) >= 1e6 or abs(v) < 1e-3):
            return f"{v:.4g}"
        return f"{v:.6g}" if abs(v) >= 100 else f"{v:.4g}"
    return str(value)


def markdown_table(columns: Sequence[str], rows: Sequence[Sequence[Any]], missing: str = "") -> str:
    """A GitHub-flavoured Markdown table; a note under it explains its dashes, if any."""

    def esc(s: str) -> str:
        return s.replace("|", "\\|")

    lines = ["| " + " | ".join(esc(str(c)) for c in columns) + " |", "|" + "---|" * len(columns)]
    for row in rows:
        if len(row) != len(columns):
            raise ValueError(f"table row has {len(row)} cells, the header {len(columns)}: {row!r}")
        lines.append("| " + " | ".join(esc(format_cell(c)) for c in row) + " |")
    if any(is_missing(c) for row in rows for c in row):
        lines.append(f"\n{MISSING} {missing or MISSING_NOTE}")
    return "\n".join(lines) + "\n"


def new_figure(width: float = 7.0, height: float = 4.0) -> tuple[Any, Any]:
    """A matplotlib (figure, axes) pair on the Agg backend, whatever the display."""
    import logging

    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    # mathtext's first use looks up every font set it knows ("findfont: Font family ['cmr10']
    # not found", twenty lines on a fresh install) and falls back to DejaVu Sans: not news
    logging.getLogger("matplotlib.font_manager").setLevel(logging.ERROR)
    _japanese_font()
    return plt.subplots(figsize=(width, height), layout="constrained")


def _japanese_font() -> None:
    """Katakana labels (Pokémon names) on any machine: IPAexGothic from the matplotlib-fontja
    package, as a per-glyph fallback behind matplotlib's own DejaVu Sans."""
    import matplotlib

    try:
        import matplotlib_fontja  # noqa: F401  (registers IPAexGothic with the font manager)
    except ImportError:
        return
    matplotlib.rcParams["font.family"] = ["DejaVu Sans", "IPAexGothic"]


def save_figure(fig: Any, path: Path, dpi: int = 110) -> Path:
    """Save a figure atomically, as PNG, SVG or PDF by the extension of `path`, and close it."""
    import matplotlib.pyplot as plt

    path = Path(path)
    kind = path.suffix.lower().lstrip(".")
    try:
        if f".{kind}" not in FIGURE_SUFFIXES:
            raise ValueError(
                f"{path}: a figure is written as {', '.join(FIGURE_SUFFIXES)} "
                "(the file type follows the extension)"
            )
        with temporary_sibling(path) as tmp:
            fig.savefig(tmp, dpi=dpi, format=kind)
    finally:
        plt.close(fig)
    return path


def write_table(
    folder: Path,
    name: str,
    columns: Sequence[str],
    rows: Sequence[Sequence[Any]],
    caption: str = "",
    missing: str = "",
) -> tuple[Path, Path]:
    """Write `name`.md and `name`.json for a table; returns both paths."""
    md = (f"{caption}\n\n" if caption else "") + markdown_table(columns, rows, missing)
    data = {"caption": caption, "columns": list(columns), "rows": [list(r) for r in rows]}
    md_path, json_path = folder / f"{name}.md", folder / f"{name}.json"
    write_text_atomic(md_path, md)
    write_text_atomic(json_path, json_text(data))
    return md_path, json_path


@dataclass
class _Table:
    name: str
    columns: list[str]
    rows: list[list[Any]]
    caption: str
    missing: str = ""


@dataclass
class Section:
    """One game's part of the report."""

    key: str
    title: str
    folder: Path
    blocks: list[tuple[str, Any]] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)
    headline: str = ""
    status: str = "ok"
    seconds: float = 0.0

    def text(self, markdownish: str) -> None:
        """A paragraph of prose (plain text; blank lines separate paragraphs)."""
        self.blocks.append(("text", markdownish))

    def table(
        self,
        name: str,
        columns: Sequence[str],
        rows: Sequence[Sequence[Any]],
        caption: str = "",
        missing: str = "",
    ) -> None:
        """A table, also written as Markdown and JSON and put in results.json. A cell without a
        value (None, NaN, "") shows a dash; `missing` says why, in a note under the table."""
        plain_rows = [list(r) for r in rows]
        write_table(self.folder, name, columns, plain_rows, caption, missing)
        self.blocks.append(("table", _Table(name, list(columns), plain_rows, caption, missing)))
        self.data.setdefault("tables", {})[name] = {
            "caption": caption,
            "columns": list(columns),
            "rows": plain_rows,
        }

    def figure(self, name: str, fig: Any, caption: str = "") -> Path:
        """A matplotlib figure, saved as `name`.png."""
        path = save_figure(fig, self.folder / f"{name}.png")
        self.blocks.append(("figure", (path.name, caption)))
        self.data.setdefault("figures", {})[name] = {
            "file": f"{self.key}/{path.name}",
            "caption": caption,
        }
        return path

    def set_headline(self, text: str) -> None:
        """The one line this section contributes to the summary table."""
        self.headline = text

    def leave_out(self, status: str, headline: str) -> None:
        """Nothing is computed in this section on this run: the summary shows `status` (e.g.
        "not computed in the quick report") instead of "ok", no time, and `headline`."""
        self.status = status
        self.headline = headline

    @property
    def computed(self) -> bool:
        """Whether this section ran its computations (succeeded or failed)."""
        return self.status in ("ok", "failed")


class Report:
    """A report folder with one section per game."""

    def __init__(
        self, out: Path, title: str = "gamelab report", meta: dict[str, Any] | None = None
    ) -> None:
        self.out = Path(out)
        self.title = title
        self.meta = dict(meta or {})
        self.sections: list[Section] = []
        #: titles of the sections still being computed (a partial report lists them and reloads
        #: itself); `stopped` says why they will not come (e.g. "interrupted")
        self.pending: list[str] = []
        self.stopped = ""

    def section(self, key: str, title: str) -> Section:
        sec = Section(key=key, title=title, folder=self.out / key)
        sec.folder.mkdir(parents=True, exist_ok=True)
        self.sections.append(sec)
        return sec

    def results(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "meta": {**self.meta, **({"pending": self.pending} if self.pending else {})},
            "sections": {
                s.key: {
                    "title": s.title,
                    "status": s.status,
                    "headline": s.headline,
                    "seconds": s.seconds,
                    **s.data,
                }
                for s in self.sections
            },
        }

    def write(self, folder: Path | None = None) -> Path:
        """Write results.json and index.html (into `folder`, default the report's own; the
        section folders must be there); returns the path of index.html."""
        folder = self.out if folder is None else Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        write_text_atomic(folder / "results.json", json_text(self.results()))
        index = folder / "index.html"
        write_text_atomic(index, self._html())
        return index

    def _html(self) -> str:
        e = _inline
        parts = [
            "<!doctype html>",
            "<html lang='en'><head><meta charset='utf-8'>",
            "<meta name='viewport' content='width=device-width, initial-scale=1'>",
            *(
                ["<meta http-equiv='refresh' content='15'>"]
                if self.pending and not self.stopped
                else []
            ),
            f"<title>{e(self.title)}</title>",
            # Phones: a wide table scrolls inside its box, prose wraps a long token rather
            # than widen the page; katakana names wrap between words, never inside one.
            "<style>body{font-family:system-ui,sans-serif;max-width:70rem;margin:2rem auto;padding:0 1rem;"
            "line-height:1.45;word-break:keep-all}table{border-collapse:collapse;margin:1rem 0}"
            "td,th{border:1px solid #bbb;padding:.25rem .6rem;text-align:right}th{background:#eee}"
            "td:first-child,th:first-child{text-align:left}figure{margin:1rem 0}img{max-width:100%}"
            "p,figcaption,h1,h2{overflow-wrap:anywhere}.meta{color:#555}.note{color:#555;"
            "font-size:.9em;margin-top:-.5rem}"
            ".wide{overflow-x:auto;max-width:100%}.wide table{margin:.5rem 0}"
            # the headline stays readable on a phone: the summary scrolls sideways instead
            ".summary td:last-child{min-width:15rem}"
            "code{background:#f3f3f3;padding:0 .2em}"
            ".pending{background:#fff6d5;padding:.5rem .8rem}</style>",
            "</head><body>",
            f"<h1>{e(self.title)}</h1>",
        ]
        generated = self.meta.get("generated") or _dt.datetime.now(_dt.UTC).isoformat(
            timespec="seconds"
        )
        meta_bits = [f"generated {e(str(generated))}"] + [
            f"{e(str(k))}: {e(str(v))}" for k, v in self.meta.items() if k != "generated"
        ]
        parts.append(f"<p class='meta'>{'; '.join(meta_bits)}</p>")
        if self.pending:
            names = "; ".join(self.pending)
            parts.append(
                f"<p class='pending'><b>Not computed ({e(self.stopped)}):</b> {e(names)}.</p>"
                if self.stopped
                else f"<p class='pending'><b>Still computing:</b> {e(names)}. This page is "
                "written again as each section finishes (it reloads itself every 15 s).</p>"
            )
        if not self.sections:
            parts.append(
                "<p>No game sections are installed yet, so this report has nothing to show.</p>"
            )
        else:
            parts.append(
                "<h2>Summary</h2><div class='wide'><table class='summary'><tr><th>game</th><th>status</th>"
                "<th>seconds</th><th>headline</th></tr>"
            )
            for s in self.sections:
                seconds = f"{s.seconds:.1f}" if s.computed else MISSING
                parts.append(
                    f"<tr><td><a href='#{html.escape(s.key)}'>{e(s.title)}</a></td><td>{e(s.status)}</td>"
                    f"<td>{seconds}</td><td style='text-align:left'>{e(s.headline)}</td></tr>"
                )
            parts.append("</table></div>")
        for s in self.sections:
            parts.append(f"<h2 id='{html.escape(s.key)}'>{e(s.title)}</h2>")
            for kind, payload in s.blocks:
                if kind == "text":
                    for para in str(payload).split("\n\n"):
                        parts.append(f"<p>{e(para)}</p>")
                elif kind == "table":
                    t: _Table = payload
                    if t.caption:
                        parts.append(f"<p><b>{e(t.caption)}</b></p>")
                    parts.append(
                        "<div class='wide'><table><tr>"
                        + "".join(f"<th>{e(str(c))}</th>" for c in t.columns)
                        + "</tr>"
                    )
                    for row in t.rows:
                        parts.append(
                            "<tr>" + "".join(f"<td>{e(format_cell(c))}</td>" for c in row) + "</tr>"
                        )
                    parts.append("</table></div>")
                    if any(is_missing(c) for row in t.rows for c in row):
                        parts.append(
                            f"<p class='note'>{MISSING} {e(t.missing or MISSING_NOTE)}</p>"
                        )
                elif kind == "figure":
                    file, caption = payload
                    parts.append(
                        f"<figure><img src='{html.escape(s.key)}/{html.escape(file)}' "
                        f"alt='{html.escape(caption or file)}'>"
                        f"<figcaption>{e(caption)}</figcaption></figure>"
                    )
        parts.append("</body></html>")
        return "\n".join(parts) + "\n"


#: Where a report is written before it replaces the one in its folder (inside that folder).
STAGING = ".gamelab-report-new"
#: Where a run's report goes when some sections failed and a previous report is kept.
INCOMPLETE = "incomplete"


def staging_folder(out: Path) -> Path:
    """An empty folder inside `out` to write a new report in (left over from a killed run: emptied)."""
    staged = Path(out) / STAGING
    if staged.exists():
        shutil.rmtree(staged)
    staged.mkdir(parents=True)
    return staged


def publish(staged: Path, out: Path) -> Path:
    """Move the report written in `staged` into `out`, replacing what it has of the same names
    (section folders first, then results.json, index.html last); returns out/index.html."""
    out = Path(out)
    entries = sorted(staged.iterdir(), key=lambda p: (p.name == "index.html", p.is_file(), p.name))
    for entry in entries:
        target = out / entry.name
        if entry.is_dir() and target.is_dir():
            old = out / f"{STAGING}-old-{entry.name}"
            if old.exists():
                shutil.rmtree(old)
            os.replace(target, old)
            os.replace(entry, target)
            shutil.rmtree(old)
        else:
            os.replace(entry, target)
    staged.rmdir()
    return out / "index.html"


def _inline(text: str) -> str:
    """HTML for one line of report prose: escaped, with Markdown `code` spans as <code>."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(text))


@dataclass(frozen=True)
class ReportContext:
    """What a game's report section gets besides its :class:`Section`.

    `quick` asks for small samples (the whole quick report must finish in a few minutes on
    2 cores); `backend` and `store` are for :func:`gamelab.core.parallel.run_tasks`, so long runs
    use the user's workers or cluster and resume from the results store.
    """

    quick: bool
    seed: int
    backend: Any  # gamelab.core.parallel.Backend
    store: Any  # gamelab.core.results.ResultStore
