"""Every `quizzer ...` example in the README runs against the bundled deck.

The tour, the "Writing cards" and "Moving in from Anki" blocks and every
`Example:` of the command reference are run in order, each block in a fresh
data folder and working folder, with standard input piped (empty unless the
example pipes `printf` into it), and must exit as the README says they do.
Tags and card ids they name must exist: `--tag adam` once named no card.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from quizzer.cards.deck import bundled_content_dir, deck_sources, load_deck

from .conftest import REPO

README = (REPO / "README.md").read_text(encoding="utf-8")

#: Examples the README itself says do not exit 0, with the reason it gives.
EXPECTED_EXIT = {
    "quizzer optimize": 1,  # "Needs at least 400 reviews: with fewer it changes nothing (exit 1)"
}


@dataclass(frozen=True)
class Example:
    """One command line of the README, as a shell would run it."""

    text: str
    args: list[str]
    stdin: str
    stdout_to: str | None


def _printf_output(fmt: str) -> str:
    # The README's printf formats use only \n; anything more would need a real shell.
    assert set(re.findall(r"\\.", fmt)) <= {"\\n"}, fmt
    return fmt.replace("\\n", "\n")


def parse(line: str) -> Example:
    """``[printf FMT |] quizzer ARGS [> FILE]  # comment`` as arguments, input and output file."""
    words = shlex.split(line, comments=True)
    stdin = ""
    if "|" in words:
        pipe = words.index("|")
        assert words[0] == "printf" and pipe == 2, line
        stdin, words = _printf_output(words[1]), words[pipe + 1 :]
    stdout_to = None
    if ">" in words:
        redirect = words.index(">")
        stdout_to, words = words[redirect + 1], words[:redirect]
    assert words[0] == "quizzer", line
    return Example(" ".join(words), words[1:], stdin, stdout_to)


def block_after(heading: str) -> list[Example]:
    """The commands of the first code block under ``heading`` that start with ``quizzer``."""
    section = README.split(f"\n{heading}\n", 1)[1]
    block = re.search(r"```(?:console|sh)\n(.*?)```", section, re.S)
    assert block is not None, heading
    lines = [line.removeprefix("$ ") for line in block.group(1).splitlines()]
    return [parse(line) for line in lines if re.match(r"(printf .*\| )?quizzer\b", line)]


def reference_examples() -> list[Example]:
    """Every ``Example:`` / ``Examples:`` of the generated command reference, in order."""
    reference = README.split("<!-- reference:start", 1)[1].split("<!-- reference:end", 1)[0]
    found = []
    for sentence in re.findall(r"Examples?: (.*)", reference):
        # "quizzer a, quizzer b or printf '...' | quizzer c": split before each command.
        for part in re.split(r",\s+(?=quizzer )|\s+or\s+(?=(?:quizzer|printf) )", sentence):
            found.append(parse(part.strip().rstrip(".")))
    return found


BLOCKS: dict[str, Callable[[], list[Example]]] = {
    "tour": lambda: block_after("## A short tour"),
    "writing cards": lambda: block_after("## Writing cards"),
    "moving in from anki": lambda: block_after("## Moving in from Anki"),
    "reference": reference_examples,
}


def test_the_readme_has_the_examples_this_test_runs():
    counts = {name: len(examples()) for name, examples in BLOCKS.items()}
    assert counts["tour"] >= 20 and counts["reference"] >= 30, counts
    assert counts["writing cards"] >= 5 and counts["moving in from anki"] == 3, counts
    texts = {e.text for examples in BLOCKS.values() for e in examples()}
    assert {"quizzer new my-card", "quizzer show my-card", "quizzer optimize"} <= texts


def _named(example: Example, option: str) -> list[str]:
    return [example.args[i + 1] for i, arg in enumerate(example.args[:-1]) if arg == option]


def test_every_tag_an_example_names_is_a_real_tag():
    tags = set(load_deck(deck_sources([], {}), cached=True).tags())
    for examples in BLOCKS.values():
        for example in examples():
            for tag in _named(example, "--tag"):
                assert tag in tags, f"{example.text}: no card has the tag {tag!r}"


@pytest.fixture
def folder(tmp_path, monkeypatch, isolated_environment):
    """A working folder laid out as a clone's top folder, with HOME in the temp data."""
    work = tmp_path / "work"
    work.mkdir()
    (work / "content").symlink_to(bundled_content_dir())  # `validate --strict content/`
    monkeypatch.setenv("HOME", str(isolated_environment))
    monkeypatch.chdir(work)
    return work


def _prepare(name: str, invoke: Callable[..., object], work: Path) -> None:
    """What the examples take as given: a folder a sync service shares, an Anki package."""
    (Path.home() / "Sync" / "quizzer").mkdir(parents=True, exist_ok=True)
    if name in ("moving in from anki", "reference"):
        # An Anki package to import: the bundled attention card, exported by quizzer.
        made = invoke("export", "anki", str(work / "Biology.apkg"), "attention")
        assert made.exit_code == 0, made.output


@pytest.mark.parametrize("name", list(BLOCKS))
def test_readme_examples_run_and_exit_as_documented(name, invoke, folder):
    _prepare(name, invoke, folder)
    failures = []
    for example in BLOCKS[name]():
        args = [
            str(Path(arg).expanduser()) if arg.startswith("~/") else arg for arg in example.args
        ]
        result = invoke(*args, input=example.stdin)
        expected = EXPECTED_EXIT.get(example.text, 0)
        if result.exit_code != expected:
            last = (result.stderr or result.stdout).strip().splitlines()[-1:]
            failures.append(f"{example.text}: exit {result.exit_code}, not {expected}: {last}")
        elif example.stdout_to is not None:
            (folder / example.stdout_to).write_text(result.stdout, encoding="utf-8")
        if "Traceback" in result.output:
            failures.append(f"{example.text}: printed a traceback")
    assert failures == []
    if name == "tour":
        # `quizzer schema > card.schema.json` wrote the schema where the shell would.
        assert (folder / "card.schema.json").read_text(encoding="utf-8").startswith("{")
