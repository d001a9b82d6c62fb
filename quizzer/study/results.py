"""How studying went: per blank, per card, per session, per drill."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from quizzer.cards.model import Card
from quizzer.study.items import EndReason, FollowUpId, Grade


@dataclass
class BlankResult:
    """How one blank went."""

    name: str
    correct: bool = False
    tries: int = 0  # judged answers
    hints: int = 0
    revealed: bool = False
    overridden: bool = False  # counted right by the learner over the judge

    @property
    def right_first_time(self) -> bool:
        return self.correct and self.tries == 1 and self.hints == 0


@dataclass
class CardResult:
    """How one card went."""

    card_id: str
    title: str
    blanks: list[BlankResult]
    ms: int = 0
    skipped: bool = False
    finished: bool = False

    @property
    def right_first_time(self) -> int:
        return sum(b.right_first_time for b in self.blanks)

    @property
    def tries(self) -> int:
        return sum(b.tries for b in self.blanks)

    @property
    def hints(self) -> int:
        return sum(b.hints for b in self.blanks)

    @property
    def all_correct(self) -> bool:
        return all(b.correct for b in self.blanks)

    @property
    def overridden(self) -> bool:
        return any(b.overridden for b in self.blanks)

    @property
    def touched(self) -> bool:
        """Whether any blank was answered, hinted or revealed (a card left untouched
        is neither right nor missed)."""
        return any(b.tries or b.hints or b.revealed for b in self.blanks)


@dataclass(kw_only=True)
class SessionSummary:
    cards: list[CardResult]
    attempts: int
    correct: int
    ended_by: EndReason

    @property
    def accuracy(self) -> float:
        return self.correct / self.attempts if self.attempts else 0.0

    def per_card(self) -> list[CardTotal]:
        """Each card once, in the order first shown, with every showing's tries summed.

        A card in its learning steps comes back in the session; the summary
        counts it once.
        """
        totals: dict[str, CardTotal] = {}
        for result in self.cards:
            total = totals.get(result.card_id)
            if total is None:
                totals[result.card_id] = CardTotal(result)
            else:
                total.later.append(result)
        return list(totals.values())


@dataclass
class CardTotal:
    """One card over a session: its first showing, then any later ones."""

    first: CardResult
    later: list[CardResult] = field(default_factory=list)

    @property
    def showings(self) -> list[CardResult]:
        return [self.first, *self.later]

    @property
    def last(self) -> CardResult:
        return self.showings[-1]

    @property
    def tries(self) -> int:
        return sum(r.tries for r in self.showings)

    @property
    def hints(self) -> int:
        return sum(r.hints for r in self.showings)

    @property
    def ms(self) -> int:
        return sum(r.ms for r in self.showings)


@dataclass
class DrillCard:
    """How one card of the drill went."""

    card: Card
    result: CardResult | None = None
    follow_up: FollowUpId | None = None
    grade: Grade | None = None
    ms: int = 0

    @property
    def blanks_right(self) -> int:
        return sum(b.correct for b in self.result.blanks) if self.result else 0

    @property
    def follow_up_right(self) -> bool | None:
        if self.grade is None:
            return None
        return self.grade >= Grade.GOOD

    @property
    def missed(self) -> bool:
        blanks_missed = self.result is None or not self.result.all_correct
        return blanks_missed or self.follow_up_right is False


@dataclass(kw_only=True)
class DrillReport:
    cards: list[DrillCard]
    target_ms: int
    ended_by: EndReason
    elapsed_ms: int

    @property
    def finished_cards(self) -> list[DrillCard]:
        return [c for c in self.cards if c.result is not None and c.result.finished]

    @property
    def cards_right(self) -> int:
        return sum(1 for c in self.finished_cards if c.result and c.result.all_correct)

    @property
    def follow_ups_right(self) -> tuple[int, int]:
        graded = [c for c in self.cards if c.grade is not None]
        return sum(1 for c in graded if c.follow_up_right), len(graded)

    @property
    def missed(self) -> list[DrillCard]:
        return [c for c in self.finished_cards if c.missed]

    def weakest_topics(self, top: int = 3) -> list[tuple[str, int]]:
        """The tags of the missed cards, most missed first.

        Args:
            top: How many tags at most.

        Returns:
            (tag, cards missed) pairs.
        """
        misses = Counter(tag for c in self.missed for tag in c.card.tags)
        return misses.most_common(top)


@dataclass(frozen=True)
class AnswerChange:
    """A blank whose answer changed in substance since the card was last reviewed."""

    blank: str
    before: str
    now: str
