"""The judges of a study session, and its one warm-up.

Loading the judge is slow (numpy and mpmath about 0.25 s, SymPy about a
second on a loaded machine), and a learner may answer the instant the first
question appears. So a session's :class:`Judges` warms up in one background
thread, started by :meth:`Judges.question_shown` (the first question is on
screen), in two stages:

1. numpy, mpmath and quizzer's judge, none of which loads SymPy;
2. the first card's judge, down its right and wrong paths, which loads SymPy
   for the read-back.

The thread starts only once the question is shown, not while the deck and
the progress database are read: under the GIL a thread importing modules
takes its time from the main thread, and started earlier it delayed the
first card by its whole stage 1 (0.65 s against 0.35 s without it, for
``review`` on a heavy history). The first question therefore never waits
for the judge, and until the thread is done an answer is decided by numbers
alone (``read_back=False``), which is the same verdict without the "read as"
line (tests/e2e/test_first_verdict.py).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from quizzer.answers import CardJudge, Verdict
    from quizzer.cards.model import Card

#: Seconds a verdict or fingerprint waits for the warm-up thread before going on without it.
WARM_UP_WAIT = 5.0
#: Seconds the warm-up waits to learn the first card before it stops (nothing was asked).
FIRST_CARD_WAIT = 600.0

StartThread = Callable[[threading.Thread], None]


def start(thread: threading.Thread) -> None:
    """Start ``thread`` (the terminal passes one that keeps Ctrl-C out of it)."""
    thread.start()


class Judges:
    """One judge per card, with the judge loading in a background thread meanwhile.

    Called as the session's judge: ``judges(card, blank, text)``.
    """

    def __init__(self, start_thread: StartThread = start) -> None:
        self._judges: dict[str, CardJudge] = {}
        self._quick: dict[str, CardJudge] = {}  # judges of the main thread, while warming
        self._first: Card | None = None
        self._first_known = threading.Event()
        #: Set once stage 1 is over: the numeric judge is loaded, SymPy is not yet.
        self.numeric_ready = threading.Event()
        self._thread = threading.Thread(target=self._warm, name="judge warm-up", daemon=True)
        self._start_thread = start_thread
        self._lock = threading.Lock()

    def warm_up(self) -> None:
        """Start the warm-up now, if it has not started (see the module)."""
        with self._lock:
            if self._thread.ident is None:
                self._start_thread(self._thread)

    def question_shown(self, card: Card) -> None:
        """The first question, of ``card``, is on screen: warm its judge (stage 2)."""
        if self._first is None:
            self._first = card
            self._first_known.set()
        self.warm_up()

    def _warm(self) -> None:
        try:
            # numpy and mpmath first: a verdict needed meanwhile waits for them, not SymPy.
            import mpmath  # noqa: F401
            import numpy  # noqa: F401

            from quizzer.answers import CardJudge
        except Exception:  # the main thread builds its own judge and reports any error
            return
        finally:
            self.numeric_ready.set()
        if not self._first_known.wait(FIRST_CARD_WAIT) or self._first is None:
            return
        card = self._first
        try:
            judge = CardJudge(card)
            for name, blank in card.blanks.items():
                judge.judge(name, blank.answer)  # the right path: parse, evaluate, print
                judge.judge(name, f"2*({blank.answer})")  # the wrong path: diagnosis
            self._judges.setdefault(card.id, judge)
        except Exception:  # as above: the card's own judge reports it when used
            pass

    @property
    def warming(self) -> bool:
        """Whether the warm-up thread is still loading."""
        return self._thread.is_alive()

    def judge_for(self, card: Card) -> CardJudge:
        """The card's judge, once the warm-up is over (or has had :data:`WARM_UP_WAIT`)."""
        self.question_shown(card)  # a judge asked for before any question: warm that card
        if self._thread.ident is not None:
            # Never wait for ever: a card too slow to warm is judged by a judge of its own.
            self._thread.join(WARM_UP_WAIT)
        from quizzer.answers import CardJudge

        if card.id not in self._judges:
            self._judges[card.id] = CardJudge(card)
        return self._judges[card.id]

    def __call__(self, card: Card, blank: str, text: str) -> Verdict:
        from quizzer.answers import judge_bounded

        self.question_shown(card)
        if self.warming:
            # SymPy is still loading: decide by numbers now rather than wait for it
            # (an answer typed at once used to wait about a second for its verdict).
            return judge_bounded(self._quick_judge(card), blank, text, read_back=False)
        return judge_bounded(self.judge_for(card), blank, text)

    def _quick_judge(self, card: Card) -> CardJudge:
        from quizzer.answers import CardJudge

        if card.id not in self._quick:
            self._quick[card.id] = CardJudge(card)
        return self._quick[card.id]

    def fingerprints(self, card: Card) -> dict[str, tuple[str, str]]:
        """Each blank's answer fingerprint and answer (to notice a changed answer)."""
        judge = self.judge_for(card)
        return {name: (judge.fingerprint(name), b.answer) for name, b in card.blanks.items()}
