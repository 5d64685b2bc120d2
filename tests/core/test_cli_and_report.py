"""The `gamelab` command's conventions and `gamelab report`."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import types
from pathlib import Path

import pytest

import gamelab
from gamelab import report as report_runner
from gamelab.core.report import markdown_table, new_figure

ROOT = Path(__file__).resolve().parents[2]


def run_cli(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "gamelab.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


def test_version_and_help():
    out = run_cli("--version")
    assert out.returncode == 0 and out.stdout.strip() == f"gamelab {gamelab.__version__}"
    out = run_cli("--help")
    assert out.returncode == 0 and "report" in out.stdout


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["--bogus"], "No such option: --bogus"),
        (["no-such-game"], "No such command"),
        (["report", "--workers", "0"], "--workers"),
        (["report", "--cluster", "nowhere"], "scheduler address"),
        (["report", "--only", "chess"], "unknown game(s) chess"),
    ],
)
def test_bad_input_is_one_error_line_and_exit_2(args, fragment, tmp_path):
    out = run_cli(*args, "--out", str(tmp_path / "r")) if args[0] == "report" else run_cli(*args)
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and fragment in lines[0]
    assert out.stdout == ""
    assert not (tmp_path / "r").exists(), "a refused command writes nothing"


def test_unwritable_report_folder_is_one_error_line(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    out = run_cli("report", "--quick", "--out", str(blocker / "report"))
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: --out ") and str(blocker) in lines[0]


def _fake_section_module(fail: bool = False) -> types.ModuleType:
    module = types.ModuleType("fake")
    module.TITLE = "Fake game"

    def build(section, ctx):
        if fail:
            raise RuntimeError("section exploded")
        section.text(f"quick={ctx.quick} seed={ctx.seed}")
        section.table("scores", ["strategy", "mean"], [["a", 1.5], ["b", 2.25]], caption="Means")
        fig, ax = new_figure()
        ax.plot([0, 1], [1, 0])
        section.figure("line", fig, caption="A line")
        section.set_headline("b beats a")

    module.build = build
    return module


def test_report_with_no_sections_is_valid_and_honest(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(report_runner, "section_modules", lambda: {})
    summary = report_runner.run_report(
        out=tmp_path,
        quick=True,
        only=None,
        seed=0,
        workers=1,
        cluster=None,
        json_out=True,
        quiet=True,
    )
    printed = json.loads(capsys.readouterr().out)
    from gamelab.core.serialise import to_plain

    assert printed == to_plain(summary) and printed["sections"] == [] and summary.sections == []
    results = json.loads((tmp_path / "results.json").read_text())
    assert results["sections"] == {} and results["meta"]["mode"] == "quick"
    assert "No game sections are installed yet" in (tmp_path / "index.html").read_text()


def test_report_writes_tables_plots_and_survives_a_failing_section(tmp_path, monkeypatch):
    monkeypatch.setattr(
        report_runner,
        "section_modules",
        lambda: {"voltorb": _fake_section_module(), "wordle": _fake_section_module(fail=True)},
    )
    with pytest.raises(SystemExit) as exit_info:
        report_runner.run_report(
            out=tmp_path,
            quick=True,
            only=None,
            seed=5,
            workers=1,
            cluster=None,
            json_out=False,
            quiet=True,
        )
    assert exit_info.value.code == 1
    results = json.loads((tmp_path / "results.json").read_text())
    ok, failed = results["sections"]["voltorb"], results["sections"]["wordle"]
    assert ok["status"] == "ok" and ok["headline"] == "b beats a"
    assert ok["tables"]["scores"]["rows"] == [["a", 1.5], ["b", 2.25]]
    assert failed["status"] == "failed" and "section exploded" in failed["headline"]
    assert (tmp_path / "voltorb" / "line.png").read_bytes().startswith(b"\x89PNG")
    assert "| b | 2.25 |" in (tmp_path / "voltorb" / "scores.md").read_text()
    html = (tmp_path / "index.html").read_text()
    assert "voltorb/line.png" in html and "<td>2.25</td>" in html and "section exploded" in html


def test_markdown_table_checks_row_width():
    assert markdown_table(["a", "b"], [[1, 2.5]]) == "| a | b |\n|---|---|\n| 1 | 2.5 |\n"
    with pytest.raises(ValueError, match="cells"):
        markdown_table(["a", "b"], [[1]])


def test_readme_quick_start_and_ci_run_the_same_test_command():
    readme = (ROOT / "README.md").read_text()
    quick = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"```bash\n(.*?)\n```", quick, flags=re.S)
    assert len(commands) == 2 and all("\n" not in c for c in commands), "two one-line commands"
    assert "gamelab report --quick" in commands[0]
    assert "pytest" in commands[1] and ".[test]" in commands[1]
    ci = (ROOT / ".ci" / "run").read_text()
    # .ci/run reads the test command out of the README, so the two cannot drift apart
    assert "grep -m1 -F '.venv/bin/python -m pytest' README.md" in ci
    assert [line for line in readme.splitlines() if ".venv/bin/python -m pytest" in line][
        0
    ] == commands[1]
    assert "ruff check" in ci


def _report(out: Path, **kw) -> report_runner.ReportSummary:
    args = dict(out=out, quick=True, only=None, seed=0, workers=1, cluster=None)
    return report_runner.run_report(**{**args, "json_out": False, "quiet": True, **kw})


def test_2_report_with_no_scheduler_fails_fast_and_keeps_the_previous_report(
    tmp_path, monkeypatch, gamelab_cli
):
    built = []
    module = _fake_section_module()
    monkeypatch.setattr(report_runner, "section_modules", lambda: {"voltorb": module})
    out = tmp_path / "r"
    _report(out)
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    module.build = lambda section, ctx: built.append(section)
    r = gamelab_cli("report", "--quick", "--out", str(out), "--cluster", "tcp://127.0.0.1:1")
    assert r.returncode == 2 and built == [], r.stderr
    assert r.stderr.startswith("error: no Dask scheduler answers at tcp://127.0.0.1:1"), r.stderr
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


def test_2_a_report_with_a_failed_section_does_not_replace_a_complete_one(tmp_path, monkeypatch):
    sections = {"voltorb": _fake_section_module()}
    monkeypatch.setattr(report_runner, "section_modules", lambda: sections)
    out = tmp_path / "r"
    _report(out)
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    sections["voltorb"] = _fake_section_module(fail=True)
    with pytest.raises(SystemExit) as exit_info:
        _report(out, json_out=True)
    assert exit_info.value.code == 1
    after = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert {p: b for p, b in after.items() if "incomplete" not in p.parts} == before
    failed = json.loads((out / "incomplete" / "results.json").read_text())
    assert failed["sections"]["voltorb"]["status"] == "failed"
    sections["voltorb"] = _fake_section_module()  # a complete run replaces it, and tidies up
    _report(out)
    assert not (out / "incomplete").exists() and not any(
        p.name.startswith(".") for p in out.iterdir()
    )
    assert json.loads((out / "results.json").read_text())["sections"]["voltorb"]["status"] == "ok"


def test_2_an_interrupted_report_leaves_the_previous_one(tmp_path, monkeypatch):
    module = _fake_section_module()
    monkeypatch.setattr(report_runner, "section_modules", lambda: {"voltorb": module})
    out = tmp_path / "r"
    _report(out)
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}

    def interrupted(section, ctx):
        section.table("scores", ["strategy", "mean"], [["z", 9.0]])  # written at once
        raise KeyboardInterrupt

    module.build = interrupted
    with pytest.raises(KeyboardInterrupt):
        _report(out)
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


@pytest.mark.parametrize("only", ["", ",,,", " , "])
def test_13_an_empty_only_is_an_error(only, gamelab_cli, tmp_path):
    r = gamelab_cli("report", "--only", only, "--out", str(tmp_path / "r"))
    assert r.returncode == 2 and r.stderr.startswith("error: --only names no game"), r.stderr
    assert not (tmp_path / "r").exists()


def _watching_section(title: str, out: Path, seen: list[str], interrupt: bool = False):
    """A section that records what out/index.html says while it runs."""
    module = types.ModuleType("watching")
    module.TITLE = title

    def build(section, ctx):
        index = out / "index.html"
        seen.append(index.read_text() if index.exists() else "")
        if interrupt:
            raise KeyboardInterrupt
        section.table("waited", ["x"], [[1]])

    module.build = build
    return module


def test_23_a_first_report_can_be_read_while_later_sections_compute(tmp_path, monkeypatch):
    out, seen = tmp_path / "r", []
    first = _fake_section_module()
    sections = {
        "voltorb": first,
        "wordle": _watching_section("Slow game", out, seen),
        "lattice": _watching_section("Slower game", out, seen),
    }
    monkeypatch.setattr(report_runner, "section_modules", lambda: sections)
    _report(out)
    # while the second section ran, the first could be read, and the page named the rest
    assert "<td>2.25</td>" in seen[0] and "voltorb/line.png" in seen[0]
    assert "Still computing:</b> Slow game; Slower game" in seen[0]
    assert "http-equiv='refresh'" in seen[0]
    assert "Still computing:</b> Slower game" in seen[1] and "Slow game</a>" in seen[1]
    html = (out / "index.html").read_text()
    assert "Still computing" not in html and "refresh" not in html and "<td>2.25</td>" in html
    results = json.loads((out / "results.json").read_text())
    assert "pending" not in results["meta"] and set(results["sections"]) == set(sections)
    assert not any(p.name.startswith(".") for p in out.iterdir())

    # a complete report is replaced only at the end: the sections see it unchanged
    seen.clear()
    _report(out)
    assert seen == [html, html]


def test_23_an_interrupted_first_report_says_what_was_not_computed(tmp_path, monkeypatch):
    out, seen = tmp_path / "r", []
    sections = {
        "voltorb": _fake_section_module(),
        "wordle": _watching_section("Slow game", out, seen, interrupt=True),
    }
    monkeypatch.setattr(report_runner, "section_modules", lambda: sections)
    with pytest.raises(KeyboardInterrupt):
        _report(out)
    html = (out / "index.html").read_text()
    assert "Not computed (interrupted):</b> Slow game" in html and "refresh" not in html
    assert "<td>2.25</td>" in html
    # the next run is a first run again: it publishes as it goes and completes the report
    sections["wordle"] = _fake_section_module()
    _report(out)
    assert "Not computed" not in (out / "index.html").read_text()
