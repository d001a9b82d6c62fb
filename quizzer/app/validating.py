"""Checking cards the way ``quizzer validate`` reports them."""

from __future__ import annotations

import functools
import hashlib
import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from quizzer.cards.cache import FORMAT
from quizzer.cards.deck import (
    PARALLEL_FROM,
    LoadedCard,
    Problem,
    card_files,
    load_card_file,
    load_deck,
    resolved_files,
)
from quizzer.errors import DeckNotFound

if TYPE_CHECKING:
    from quizzer.answers import CardJudge
    from quizzer.app.workspace import Workspace
    from quizzer.cards.model import Card, CardProblem


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
    cached: bool = True,
    require_key_points: bool = False,
) -> ValidationReport:
    """Validate the cards under ``paths`` (every known card when empty).

    Cards are checked against every known card too, so a duplicate id or a
    ``related`` id that points nowhere is found even when one file is named.
    With ``strict``, what a publishable card needs is an error, not a warning.
    ``reviewed_answers`` gives, per card id, each blank's (fingerprint, answer)
    when the learner last reviewed it, so edits in substance are pointed out.
    ``workers`` sets the process pool (default: every core from PARALLEL_FROM cards on).
    With ``cached``, a card whose file, deck ids, reviewed answers and quizzer
    are as when it was last checked is not judged again: its problems come
    from the cache, as a linter such as ruff does.
    With ``require_key_points``, a follow-up without key points is a warning;
    ``strict`` requires them (an error), as it requires every teaching section:
    a publishable card's follow-ups are checked on what a good answer says.
    """
    from quizzer.cards.cache import cached_results, store_results

    require_key_points = require_key_points or strict

    for path in paths:
        if not path.exists():
            raise DeckNotFound(f"no such file or folder: {path}")
        if path.is_dir() and not card_files(path):
            raise DeckNotFound(f"no card files (*.yaml, *.yml) in {path}")
    targets = list(paths) or list(known_sources)
    # Resolved once per source, not once per file (10,000 resolve() calls took 0.3 s).
    target_files = {name for source in targets for name in resolved_files(source)}
    # Each problem is listed: no summary warning on top.
    deck = load_deck([*known_sources, *targets], cached=cached, report=False)
    known_ids = frozenset(deck.by_id())

    problems = []
    if deck.problems:  # few: each file resolved fully, symbolic links below the source too
        real = {p.resolve() for source in targets for p, _ in card_files(source)}
        problems = [p for p in deck.problems if Path(p.path).resolve() in real]
    checked = [c for c in deck.cards if c.resolved in target_files]
    context = f"{_context(known_ids)}|key points required: {require_key_points}"
    keys: dict[str, tuple[LoadedCard, dict[str, tuple[str, str]]]] = {}
    for loaded in checked:
        reviewed = reviewed_answers(loaded.id) if reviewed_answers else {}
        keys[_result_key(loaded.path, reviewed, context)] = (loaded, reviewed)
    found: dict[str, list[Problem]] = {}
    for key, stored in (cached_results(keys) if cached else {}).items():
        usable = _problems_from(stored)
        if usable is not None:
            found[key] = usable
            problems.extend(usable)
    jobs = [
        (key, str(c.path), c.deck, reviewed, require_key_points)
        for key, (c, reviewed) in keys.items()
    ]
    jobs = [job for job in jobs if job[0] not in found]
    fresh = {key: new for key, new in _deep_checks(jobs, known_ids, workers) if new is not None}
    for new in fresh.values():
        problems.extend(new)
    if cached:
        store_results({key: [p.to_dict() for p in new] for key, new in fresh.items()})
    if strict:
        problems = [replace(p, severity="error") for p in problems]
    problems.sort(key=lambda p: (p.path, p.line, p.column))
    return ValidationReport(cards=len(target_files), problems=problems)


#: key, path, deck, reviewed answers, whether every follow-up needs key points
Job = tuple[str, str, str, dict[str, tuple[str, str]], bool]


def _deep_checks(
    jobs: list[Job], known_ids: frozenset[str], workers: int | None
) -> Iterator[tuple[str, list[Problem] | None]]:
    if workers is None:
        workers = os.cpu_count() or 1 if len(jobs) >= PARALLEL_FROM else 1
    if workers > 1 and len(jobs) > 1:
        # Judging examples is CPU-bound (SymPy, numpy): spread it over every core.
        # The deck's ids go to each worker once, not with each of its cards.
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(
            max_workers=workers,
            mp_context=context,
            initializer=_remember_ids,
            initargs=(known_ids,),
        ) as pool:
            chunk = max(1, len(jobs) // (workers * 8))
            yield from pool.map(_deep_check, jobs, chunksize=chunk)
    else:
        _remember_ids(known_ids)
        yield from map(_deep_check, jobs)


_known_ids: frozenset[str] = frozenset()


def _remember_ids(known_ids: frozenset[str]) -> None:
    global _known_ids
    _known_ids = known_ids


def _context(known_ids: frozenset[str]) -> str:
    """What every card's result depends on besides its own file: the deck's ids and quizzer."""
    ids = hashlib.sha256("\n".join(sorted(known_ids)).encode("utf-8")).hexdigest()
    return f"{FORMAT}|{_code_stamp()}|{ids}"


@functools.lru_cache(maxsize=1)
def _code_stamp() -> str:
    """quizzer's own source files (names, sizes, times): a new judge is a new result.

    The version alone would keep stale results across edits of an
    unreleased quizzer; stat-ing its few dozen modules costs about a millisecond.
    """
    package = Path(__file__).resolve().parent.parent
    stamp = hashlib.sha256()
    for module in sorted(package.rglob("*.py")):
        info = module.stat()
        stamp.update(f"{module.relative_to(package)}:{info.st_size}:{info.st_mtime_ns};".encode())
    return stamp.hexdigest()


def _result_key(path: Path, reviewed: dict[str, tuple[str, str]], context: str) -> str:
    key = hashlib.sha256(f"{context}|{path}|{sorted(reviewed.items())}".encode())
    try:
        key.update(path.read_bytes())
    except OSError:
        key.update(b"\0unreadable")  # never matches a stored result of a readable file
    return key.hexdigest()


def _problems_from(stored: list[dict[str, Any]]) -> list[Problem] | None:
    """Problems as stored by a previous run; None when the entry is damaged (a cache miss)."""
    try:
        problems = [
            Problem(
                str(entry["path"]),
                int(entry["line"]),
                int(entry["column"]),
                str(entry["message"]),
                entry["severity"],
            )
            for entry in stored
        ]
    except (KeyError, TypeError, ValueError):
        return None
    if any(p.severity not in ("error", "warning") for p in problems):
        return None
    return problems


def _deep_check(job: Job) -> tuple[str, list[Problem] | None]:
    """Answer, publishing, related-id and changed-answer checks of one card, located in its file."""
    from quizzer.answers import CardJudge
    from quizzer.answers.checks import answer_problems
    from quizzer.cards.model import CardProblem, publishing_problems

    key, path, deck, reviewed, require_key_points = job
    loaded, _ = load_card_file(Path(path), deck)  # with positions, which cached cards lack
    if loaded is None:  # changed on disk since the deck was read: the next run sees it
        return key, None
    judge = CardJudge(loaded.card)
    found = [*answer_problems(loaded.card, judge), *publishing_problems(loaded.card)]
    found.extend(_changed_answers(judge, reviewed))
    found.extend(alias_shadow_problems(loaded.card))
    found.extend(key_point_problems(loaded.card))
    found.extend(giveaway_problems(loaded.card, judge))
    if require_key_points:
        found.extend(missing_key_points(loaded.card))
    for index, other in enumerate(loaded.card.related):
        if other not in _known_ids:
            found.append(
                CardProblem(("related", index), f"unknown related card '{other}'", warning=True)
            )
    return key, [loaded.problem(p) for p in found]


def key_point_problems(card: Card) -> list[CardProblem]:
    """Each key point's examples must be judged covered (or not) as declared (issue 28)."""
    from quizzer.answers.keypoints import KeyPointChecker
    from quizzer.cards.model import CardProblem

    if not any(point.examples for f in card.follow_ups for point in f.key_points):
        return []
    checker = KeyPointChecker(card)
    problems = []
    for f, follow_up in enumerate(card.follow_ups):
        for p, point in enumerate(follow_up.key_points):
            if not point.concepts and not point.formula:
                problems.append(
                    CardProblem(
                        ("follow_ups", f, "key_points", p),
                        "a key point needs 'concepts' or a 'formula' to be checked",
                    )
                )
            for e, example in enumerate(point.examples):
                covered = checker.covered(point, example.answer)
                if covered != example.covered:
                    judged = "covered" if covered else "missed"
                    declared = "covered" if example.covered else "missed"
                    problems.append(
                        CardProblem(
                            ("follow_ups", f, "key_points", p, "examples", e),
                            f"key point '{point.point}': example '{example.answer}' is judged"
                            f" {judged} but declared {declared}",
                        )
                    )
    return problems


def missing_key_points(card: Card) -> list[CardProblem]:
    """Follow-ups without key points: their answers cannot be checked (issue 28 item 4)."""
    from quizzer.cards.model import CardProblem

    return [
        CardProblem(
            ("follow_ups", f),
            f"follow-up {f + 1} has no key points: list what a good answer says"
            " (key_points, each with concepts or a formula) so answers can be checked",
            warning=True,
        )
        for f, follow_up in enumerate(card.follow_ups)
        if not follow_up.key_points
    ]


def giveaway_problems(card: Card, judge: CardJudge) -> list[CardProblem]:
    """Wrong-answer feedback that states the blank's answer (issue 23 item 4)."""
    from quizzer.answers.giveaway import giveaways
    from quizzer.cards.model import CardProblem

    return [
        CardProblem(
            ("blanks", found.blank, "wrong", found.wrong, "feedback"),
            found.message(card.blanks[found.blank].answer),
            warning=True,
        )
        for found in giveaways(card, judge)
    ]


def _changed_answers(judge: CardJudge, reviewed: dict[str, tuple[str, str]]) -> list[CardProblem]:
    from quizzer.cards.model import CardProblem

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


def validate(
    workspace: Workspace,
    paths: Sequence[Path] = (),
    *,
    strict: bool = False,
    require_key_points: bool = False,
) -> ValidationReport:
    """``quizzer validate``: check ``paths`` (default: every known card) as the command does.

    The learner's record of answers as last reviewed comes from the progress
    database when there is a usable one (a broken one is for other commands).
    """
    from quizzer.progress.store import Store, StoreError

    path = workspace.db_path
    store = None
    if path.exists():
        try:
            store = Store.open(path, create=False)
        except StoreError:
            store = None
    try:
        reviewed = store.fingerprints if store is not None else None
        return validate_paths(
            list(paths),
            workspace.sources(),
            strict=strict,
            reviewed_answers=reviewed,
            require_key_points=require_key_points,
        )
    finally:
        if store is not None:
            store.close()


def alias_shadow_problems(card: Card) -> list[CardProblem]:
    """Aliases that would hide a constant or a unit word (the judge does not read them)."""
    from quizzer.answers.syntax import shadowed_by
    from quizzer.cards.model import CardProblem
    from quizzer.names import is_notation

    problems = []
    for name, symbol in card.symbols.items():
        for index, alias in enumerate(symbol.aliases):
            hidden = None if is_notation(alias) or alias == name else shadowed_by(alias)
            if hidden is None or hidden.startswith("the function"):
                continue  # a function's name is the alias alone, the function before a bracket
            message = (
                f"alias '{alias}' would hide {hidden}, so answers do not read it as"
                f" {name}: remove it"
            )
            problems.append(CardProblem(("symbols", name, "aliases", index), message, warning=True))
    return problems
