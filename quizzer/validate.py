"""Checking cards the way ``quizzer validate`` reports them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from quizzer.answers import CardJudge
from quizzer.answers.checks import answer_problems
from quizzer.cards import CardProblem, publishing_problems
from quizzer.deck import Problem, card_files, load_deck
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
) -> ValidationReport:
    """Validate the cards under ``paths`` (every known card when empty).

    Cards are checked against every known card too, so a duplicate id or a
    ``related`` id that points nowhere is found even when one file is named.
    With ``strict``, what a publishable card needs is an error, not a warning.
    ``reviewed_answers`` gives, per card id, each blank's (fingerprint, answer)
    when the learner last reviewed it, so edits in substance are pointed out.
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
    for loaded in deck.cards:
        if loaded.path.resolve() not in target_files:
            continue
        judge = CardJudge(loaded.card)
        found = [*answer_problems(loaded.card, judge), *publishing_problems(loaded.card)]
        if reviewed_answers is not None:
            found.extend(_changed_answers(judge, reviewed_answers(loaded.id)))
        for index, other in enumerate(loaded.card.related):
            if other not in known_ids:
                found.append(
                    CardProblem(("related", index), f"unknown related card '{other}'", warning=True)
                )
        problems.extend(loaded.problem(p) for p in found)
    if strict:
        problems = [replace(p, severity="error") for p in problems]
    problems.sort(key=lambda p: (p.path, p.line, p.column))
    return ValidationReport(cards=len(target_files), problems=problems)


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
