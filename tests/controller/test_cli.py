"""The command line's parser: one summary per subcommand, and only the chosen subcommand's module imported."""

from __future__ import annotations

import argparse
import importlib
import json
import subprocess
import sys

import pytest

from controller import cli


@pytest.mark.parametrize("name", list(cli.COMMANDS))
def test_each_summary_is_the_one_its_module_registers(name):
    parser = argparse.ArgumentParser()
    subparsers = parser.add_subparsers()
    importlib.import_module(f"controller.commands.{name}").register(subparsers)
    assert [a.dest for a in subparsers._choices_actions] == [name]
    assert subparsers._choices_actions[0].help == cli.COMMANDS[name]


def test_every_module_in_the_commands_package_is_listed():
    from pathlib import Path
    folder = Path(cli.__file__).parent / "commands"
    modules = {p.stem for p in folder.glob("*.py")} - {"__init__", "common"}
    assert modules == set(cli.COMMANDS)


def imported_after(*argv: str) -> tuple[int, list[str], str]:
    """(exit status, the command, runtime and driver modules imported, what was printed) of ``tablectl ARGV``."""
    code = ("import contextlib, io, json, sys\nfrom controller import cli\nout = io.StringIO()\n"
            "with contextlib.redirect_stdout(out):\n    try:\n        status = cli.main(list(sys.argv[1:]))\n"
            "    except SystemExit as e:\n        status = e.code\n"
            "print(json.dumps([status, sorted(m for m in sys.modules if m.startswith(('controller.commands', "
            "'controller.runtime', 'drivers'))), out.getvalue()]))")
    done = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, check=True)
    status, modules, text = json.loads(done.stdout)
    return int(status), modules, text


@pytest.mark.parametrize("argv", [("--version",), ("--help",), ()])
def test_version_and_help_import_no_command(argv):
    status, modules, text = imported_after(*argv)
    assert modules == []
    assert status == (2 if not argv else 0)
    if argv != ("--version",):
        flat = " ".join(text.split()).replace("- ", "-")  # argparse wraps the summaries, at hyphens too
        assert all(name in flat and summary in flat for name, summary in cli.COMMANDS.items())


def test_a_command_imports_its_own_module_only():
    status, modules, text = imported_after("math", "--help")
    assert status == 0 and "--simulate" in text
    assert [m for m in modules if m.startswith("controller.commands.")] == ["controller.commands.common",
                                                                            "controller.commands.math"]


def test_unknown_command_is_one_usage_error():
    done = subprocess.run([sys.executable, "-m", "controller.cli", "nonsense"], capture_output=True, text=True)
    assert done.returncode == 2 and "invalid choice: 'nonsense'" in done.stderr
