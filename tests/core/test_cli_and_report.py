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
