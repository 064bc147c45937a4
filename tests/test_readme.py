"""The README's two commands stay true: CI runs the test command verbatim."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    block = re.search(r"```sh\n(.*?)```", text, re.S)
    assert block, "the README opens with a sh block of two commands"
    return [line for line in block.group(1).splitlines() if line.strip()]


def test_readme_opens_with_exactly_a_play_and_a_test_command() -> None:
    play, test = readme_commands()
    assert "ttr " in play
    assert "pytest" in test


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    _, test = readme_commands()
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert test in ci


def test_the_plain_install_brings_the_fast_deck() -> None:
    """`pip install .` installs gmpy2 (a plain install gave a deck 5-8x
    slower); `.[fast]`, the earlier command, still works as an alias."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert any(re.match(r"gmpy2\b", dep) for dep in project["dependencies"])
    assert any(re.match(r"gmpy2\b", dep) for dep in project["optional-dependencies"]["fast"])
    play, _ = readme_commands()
    assert "[fast]" not in play and "pip install ." in play
