"""Coverage-guided fuzzing of the answer judge and the card loader with atheris.

Not part of the suite (atheris is not a test dependency). To run it:

    python -m venv /tmp/fuzz && /tmp/fuzz/bin/pip install -e . atheris
    /tmp/fuzz/bin/python fuzz/atheris_harness.py judge -max_total_time=600
    /tmp/fuzz/bin/python fuzz/atheris_harness.py cards -max_total_time=600

A target fails (and atheris saves the input) when anything but quizzer's own
errors escapes, when a judgement outlives its bound, or when a card file
produces anything but a card or located problems.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import atheris

# Only quizzer is instrumented: coverage of SymPy and numpy would swamp the signal.
with atheris.instrument_imports(include=["quizzer"]):
    # quizzer imports these lazily, which would be after this block: import them here.
    import quizzer.answers.judge
    import quizzer.answers.numeric
    import quizzer.answers.symbolic
    import quizzer.answers.syntax
    import quizzer.cards.model
    import quizzer.cards.yamldoc  # noqa: F401
    from quizzer.answers import JUDGE_SECONDS, CardJudge, judge_bounded
    from quizzer.cards.deck import deck_sources, load_card_file, load_deck

#: A judgement may overrun its limit by the time the timer takes to fire.
SLACK_SECONDS = 0.5

JUDGES = [CardJudge(loaded.card) for loaded in load_deck(deck_sources()).cards]


def judge_target(data: bytes) -> None:
    provider = atheris.FuzzedDataProvider(data)
    judge = JUDGES[provider.ConsumeIntInRange(0, len(JUDGES) - 1)]
    blanks = list(judge.card.blanks)
    blank = blanks[provider.ConsumeIntInRange(0, len(blanks) - 1)]
    text = provider.ConsumeUnicodeNoSurrogates(400)
    started = time.perf_counter()
    verdict = judge_bounded(judge, blank, text)  # returns a verdict for every input
    elapsed = time.perf_counter() - started
    if elapsed > JUDGE_SECONDS + SLACK_SECONDS:
        raise RuntimeError(f"judging {text!r} took {elapsed:.2f} s")
    if verdict.correct and verdict.status != "correct":
        raise RuntimeError(f"inconsistent verdict for {text!r}: {verdict}")


CARD_FILE = Path(tempfile.mkdtemp(prefix="quizzer-atheris-")) / "card.yaml"


def cards_target(data: bytes) -> None:
    CARD_FILE.write_bytes(data)
    loaded, problems = load_card_file(CARD_FILE)  # never raises for a bad file
    if loaded is None and not problems:
        raise RuntimeError("no card and no problem")
    for problem in problems:
        if problem.line < 1 or problem.column < 1 or not problem.message:
            raise RuntimeError(f"unlocated problem: {problem}")


TARGETS = {"judge": judge_target, "cards": cards_target}


def seed_corpus() -> Path:
    """A scratch corpus seeded with the bundled cards (libFuzzer writes into it)."""
    corpus = Path(tempfile.mkdtemp(prefix="quizzer-corpus-"))
    for source in deck_sources():
        for index, path in enumerate(sorted(source.rglob("*.yaml"))):
            (corpus / f"{index:03d}-{path.name}").write_bytes(path.read_bytes())
    return corpus


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in TARGETS:
        sys.exit(f"usage: {sys.argv[0]} {{{'|'.join(TARGETS)}}} [libFuzzer options]")
    name = sys.argv.pop(1)
    if name == "cards" and not any(not arg.startswith("-") for arg in sys.argv[1:]):
        sys.argv.append(str(seed_corpus()))
    atheris.Setup(sys.argv, TARGETS[name])
    atheris.Fuzz()


if __name__ == "__main__":
    main()
