"""Judging answers: parse safely, compare by value, explain what is wrong.

Library use::

    from quizzer import judge
    verdict = judge("attention", "scale", "d_k^(1/2)")
    verdict.correct, verdict.interpreted, verdict.feedback
    # (True, 'sqrt(d_k)', None)

Importing this package loads SymPy and numpy; the rest of quizzer imports it
only where an answer is judged.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from typing import TYPE_CHECKING

from quizzer.answers.deadline import JUDGE_SECONDS, JudgeTimeout, _timer_usable, deadline
from quizzer.answers.judge import (
    CardJudge,
    Verdict,
    judge_in_this_thread,
    symbol_table,
    unanswered,
)
from quizzer.answers.syntax import AnswerError, TooLarge, UnknownSymbol, parse
from quizzer.cards.model import Card

if TYPE_CHECKING:
    from quizzer.answers.worker import JudgeWorker

_workers: dict[float, JudgeWorker] = {}  # by time limit; shared by every thread
_workers_lock = threading.Lock()


def _worker(seconds: float) -> JudgeWorker:
    from quizzer.answers.worker import JudgeWorker

    with _workers_lock:
        if seconds not in _workers:
            _workers[seconds] = JudgeWorker(seconds)
        return _workers[seconds]


def judge_bounded(
    judge: CardJudge,
    blank: str,
    text: str,
    seconds: float = JUDGE_SECONDS,
    *,
    read_back: bool = True,
) -> Verdict:
    """``judge.judge(blank, text)``, with a wall-clock limit.

    ``read_back=False`` decides without SymPy where numbers can (see
    :meth:`CardJudge.judge`).

    In the main thread a timer signal enforces the limit. Elsewhere no timer
    can reach the judgement, so it runs in a warm child process that is
    killed and replaced if it overruns (see :mod:`quizzer.answers.worker`);
    where no child can be started, the size limits alone bound it.
    """
    if not _timer_usable():
        from quizzer.answers.worker import WorkerError

        try:
            return _worker(seconds).judge(judge, blank, text)
        except WorkerError:
            pass  # no child process here: judge in this thread, bounded by size limits only
    return judge_in_this_thread(judge, blank, text, seconds, read_back=read_back)


_judges: dict[tuple[str, int], CardJudge] = {}  # (card as JSON, seed) -> its compiled judge


@lru_cache(maxsize=128)
def _known_card(card_id: str) -> Card:
    """A card by id, looked up once per process (from the deck cache, not re-validated)."""
    from quizzer.cards.deck import deck_sources, resolve_card

    return resolve_card(card_id, deck_sources(), cached=True).card


def judge(card: Card | str, blank: str, text: str, *, seed: int = 0) -> Verdict:
    """Judge one answer to one blank of a card (a :class:`Card` or a bundled card id)."""
    if isinstance(card, str):
        card = _known_card(card)
    key = (card.model_dump_json(), seed)
    if key not in _judges:
        _judges[key] = CardJudge(card, seed=seed)
    return judge_bounded(_judges[key], blank, text)


__all__ = [
    "JUDGE_SECONDS",
    "AnswerError",
    "CardJudge",
    "JudgeTimeout",
    "TooLarge",
    "UnknownSymbol",
    "Verdict",
    "deadline",
    "judge",
    "judge_bounded",
    "parse",
    "symbol_table",
    "unanswered",
]
