"""Checking cards the way ``quizzer validate`` reports them."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from quizzer.answers import CardJudge
from quizzer.answers.checks import answer_problems
from quizzer.cards.deck import PARALLEL_FROM, LoadedCard, Problem, card_files, load_deck
from quizzer.cards.model import CardProblem, publishing_problems
from quizzer.errors import DeckNotFound


@dataclass
class ValidationReport:
    """What ``validate`` found: counts and located problems, errors before warnings per file."""

    cards: int
    problems: list[Problem] = field(default_factory=list)

    @property
    def errors(self) -> int:
        return sum(1 for p in self.problems if p.severity == "error")

    @property
    def warnings(self) -> int:
        return sum(1 for p in self.problems if p.severity == "warning")

    @property
    def ok(self) -> bool:
        return self.errors == 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "cards": self.cards,
            "problems": [p.to_dict() for p in self.problems],
        }


def validate_paths(
    paths: Sequence[Path],
    known_sources: Sequence[Path],
    *,
    strict: bool = False,
    reviewed_answers: Callable[[str], dict[str, tuple[str, str]]] | None = None,
    workers: int | None = None,
) -> ValidationReport:
    """Validate the cards under ``paths`` (every known card when empty).

    Cards are checked against every known card too, so a duplicate id or a
    ``related`` id that points nowhere is found even when one file is named.
    With ``strict``, what a publishable card needs is an error, not a warning.
    ``reviewed_answers`` gives, per card id, each blank's (fingerprint, answer)
    when the learner last reviewed it, so edits in substance are pointed out.
    ``workers`` sets the process pool (default: every core from PARALLEL_FROM cards on).
    """
    for path in paths:
        if not path.exists():
            raise DeckNotFound(f"no such file or folder: {path}")
        if path.is_dir() and not card_files(path):
            raise DeckNotFound(f"no card files (*.yaml, *.yml) in {path}")
    targets = list(paths) or list(known_sources)
    target_files = {p.resolve() for source in targets for p, _ in card_files(source)}
    deck = load_deck([*known_sources, *targets])
    known_ids = set(deck.by_id())

    problems = [p for p in deck.problems if Path(p.path).resolve() in target_files]
    checked = [c for c in deck.cards if c.path.resolve() in target_files]
    jobs = [
        (loaded, reviewed_answers(loaded.id) if reviewed_answers else {}, known_ids)
        for loaded in checked
    ]
    if workers is None:
        workers = os.cpu_count() or 1 if len(jobs) >= PARALLEL_FROM else 1
    if workers > 1:
        # Judging examples is CPU-bound (SymPy, numpy): spread it over every core.
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            for found in pool.map(_deep_check, jobs, chunksize=max(1, len(jobs) // (workers * 8))):
                problems.extend(found)
    else:
        for job in jobs:
            problems.extend(_deep_check(job))
    if strict:
        problems = [replace(p, severity="error") for p in problems]
    problems.sort(key=lambda p: (p.path, p.line, p.column))
    return ValidationReport(cards=len(target_files), problems=problems)


def _deep_check(job: tuple[LoadedCard, dict[str, tuple[str, str]], set[str]]) -> list[Problem]:
    """Answer, publishing, related-id and changed-answer checks of one card."""
    loaded, reviewed, known_ids = job
    judge = CardJudge(loaded.card)
    found = [*answer_problems(loaded.card, judge), *publishing_problems(loaded.card)]
    found.extend(_changed_answers(judge, reviewed))
    for index, other in enumerate(loaded.card.related):
        if other not in known_ids:
            found.append(
                CardProblem(("related", index), f"unknown related card '{other}'", warning=True)
            )
    return [loaded.problem(p) for p in found]


def _changed_answers(judge: CardJudge, reviewed: dict[str, tuple[str, str]]) -> list[CardProblem]:
    problems = []
    for blank, (fingerprint, before) in reviewed.items():
        if blank in judge.card.blanks and judge.fingerprint(blank) != fingerprint:
            problems.append(
                CardProblem(
                    ("blanks", blank, "answer"),
                    f"the answer changed since it was last reviewed (was {before});"
                    " progress is kept",
                    warning=True,
                )
            )
    return problems
