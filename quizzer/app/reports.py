"""What the learner's record says, as data: status, listing, stats, history, overrides, topics.

Each report reads the progress database only if it exists (a missing one is
"nothing yet", never created) and carries what its screen needs; ``to_dict``
(or ``to_list`` for the commands whose JSON is a list) is the command's
``--json`` shape of DESIGN.md's contract, unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from quizzer.errors import QuizzerError

if TYPE_CHECKING:
    from quizzer.app.workspace import Workspace
    from quizzer.cards.deck import LoadedCard
    from quizzer.progress.flags import CardFlags
    from quizzer.progress.selection import CardState, Status
    from quizzer.progress.stats import CardHistory, Report, Topic
    from quizzer.study.overrides import CardOverrides


@dataclass(frozen=True)
class StatusReport:
    """Bare ``quizzer``: due, new, streak and the next card due, over every known card."""

    status: Status
    now: datetime


def status(workspace: Workspace) -> StatusReport:
    """Due, new and set-aside cards, and the streak, with the learner's saved settings.

    Suspended and buried cards are neither due nor new; new cards are what
    ``quizzer config new_per_day`` still allows today.
    """
    from quizzer.app.choosing import load, stored_flags, stored_states, study_days
    from quizzer.progress.selection import status as status_of

    cards = load(workspace).cards
    states, _ = stored_states(workspace)
    now = workspace.clock()
    from quizzer.progress.settings import read_settings

    with workspace.existing_progress() as store:
        seen_today = store.first_reviews_on(now.date().isoformat()) if store else 0
        new_today = max(0, read_settings(store).new_per_day - seen_today)
    figures = status_of(
        [c.id for c in cards],
        states,
        study_days(workspace),
        now,
        flags=stored_flags(workspace),
        new_today=new_today,
    )
    return StatusReport(figures, now)


@dataclass(frozen=True)
class Listing:
    """``list``: the chosen cards with their states, and what went wrong on the way.

    Attributes:
        cards: The cards, in deck order (best match first with ``--search``).
        states: Each studied card's state (a card not here is new).
        broken_files: How many card files could not be loaded.
        states_problem: Why the states could not be read (a broken database), if so.
        now: The time the states were read at.
        flags: Each suspended or buried card's flags (a card not here is neither).
    """

    cards: list[LoadedCard]
    states: dict[str, CardState]
    broken_files: int
    states_problem: str | None
    now: datetime
    flags: dict[str, CardFlags] = field(default_factory=dict)

    def state_of(self, card: LoadedCard) -> CardState:
        from quizzer.progress.selection import NEW_CARD

        return self.states.get(card.id, NEW_CARD)

    def flags_of(self, card: LoadedCard) -> CardFlags:
        from quizzer.progress.flags import NOT_FLAGGED

        return self.flags.get(card.id, NOT_FLAGGED)

    def labels(self) -> dict[str, str]:
        """Each card's state; a card set aside says so instead (suspended, buried)."""
        labels = {}
        for card in self.cards:
            flags = self.flags_of(card)
            if flags.set_aside(self.now):
                labels[card.id] = "suspended" if flags.suspended else "buried"
            else:
                labels[card.id] = self.state_of(card).label(self.now)
        return labels

    def to_list(self) -> list[dict[str, Any]]:
        return [
            {
                "id": c.id,
                "title": c.title,
                "tags": c.tags,
                "path": str(c.path),
                "deck": c.deck,
                "blanks": c.blank_names,
                **self.state_of(c).to_dict(),
                **self.flags_of(c).to_dict(),
            }
            for c in self.cards
        ]


def listing(workspace: Workspace, tags: Sequence[str] = (), search: str | None = None) -> Listing:
    """Every card with one of ``tags`` (all when none) matching ``search``, with its state."""
    from quizzer.app.choosing import filtered, load, stored_flags, stored_states

    deck = load(workspace)
    cards = filtered(deck.cards, tags, search)
    problem = None
    flags: dict[str, CardFlags] = {}
    try:
        states = stored_states(workspace)[0]
        flags = stored_flags(workspace)
    except QuizzerError as error:  # a broken database: list the cards without states
        states, problem = {}, error.message
    broken = {p.path for p in deck.problems if p.severity == "error"}
    return Listing(cards, states, len(broken), problem, workspace.clock(), flags)


@dataclass(frozen=True)
class StatsReport:
    """``stats``: accuracy, streak, accuracy by tag, what falls due, weakest cards."""

    figures: Report
    db_path: str
    now: datetime

    def to_dict(self) -> dict[str, Any]:
        return self.figures.to_dict()


def stats(workspace: Workspace) -> StatsReport:
    from quizzer.app.choosing import load
    from quizzer.progress.schedule import FORECAST_DAYS, learner_scheduler
    from quizzer.progress.stats import Report, report

    now = workspace.clock()
    with workspace.existing_progress() as store:
        if store is None:
            figures = Report(0, 0, 0, 0, 0, 0, 0, 0, [0] * FORECAST_DAYS)
        else:
            tags = {c.id: c.tags for c in load(workspace).cards}
            from quizzer.progress.parameters import desired_retention

            figures = report(
                store,
                tags,
                learner_scheduler(store),
                now,
                desired_retention=desired_retention(store),
            )
    return StatsReport(figures, str(workspace.db_path), now)


@dataclass(frozen=True)
class HistoryReport:
    """``stats CARD``: one card's answers, reviews, due time and recall."""

    card: str
    history: CardHistory
    now: datetime

    def to_dict(self) -> dict[str, Any]:
        history = self.history
        return {
            "card": self.card,
            "due": history.due.isoformat() if history.due else None,
            "retrievability": history.retrievability,
            "lapses": history.lapses,
            "attempts": [
                {
                    "blank": a.blank,
                    "given": a.given,
                    "correct": a.correct,
                    "try": a.try_number,
                    "at": a.at.isoformat(),
                }
                for a in history.attempts
            ],
            "reviews": [{"rating": r.rating, "at": r.at.isoformat()} for r in history.reviews],
        }


def history(workspace: Workspace, card: str, *, last: int | None = None) -> HistoryReport:
    """One card's history; a card never studied and unknown to the deck is an error.

    ``last``: only the last this many answers (and no reviews, only their counts).
    """
    from quizzer.app.choosing import load
    from quizzer.progress.schedule import learner_scheduler
    from quizzer.progress.stats import card_history

    now = workspace.clock()
    with workspace.existing_progress() as store:
        if store is None:
            raise QuizzerError(f"no progress yet (no database at {workspace.db_path})")
        found = card_history(store, card, learner_scheduler(store), now, last=last)
    if not (found.attempt_count or found.review_count or found.due):
        # Nothing stored: a typo must not pass for a card never studied.
        # A follow-up's history is kept under CARD#follow-N.
        load(workspace).find(card.split("#")[0])
    return HistoryReport(card, found, now)


@dataclass(frozen=True)
class OverridesReport:
    """``overrides``: the answers counted right over the judge, per card, with its file."""

    cards: list[CardOverrides]
    paths: dict[str, str | None] = field(default_factory=dict)
    #: Where to edit each card: its file, or a bundled card's file in quizzer's source.
    sources: dict[str, str | None] = field(default_factory=dict)

    def to_list(self) -> list[dict[str, Any]]:
        return [
            {
                "card": item.card_id,
                "path": self.paths[item.card_id],
                "source": self.sources.get(item.card_id),
                "overrides": [
                    {"blank": a.blank, "given": a.given, "at": a.at.isoformat()}
                    for a in item.answers
                ],
                "examples": item.examples_yaml(),
            }
            for item in self.cards
        ]


def overrides(workspace: Workspace, card: str | None = None) -> OverridesReport:
    from quizzer.app.choosing import load
    from quizzer.study.overrides import overrides_by_card

    known = load(workspace).by_id()
    if card is not None and card not in known:
        load(workspace).find(card)  # unknown: the error names the closest ids
    attempts = []
    with workspace.existing_progress() as store:
        if store is not None:
            attempts = list(store.each_attempt(card, overridden_only=True))
    found = overrides_by_card(attempts, card)
    from quizzer.cards.finding import source_of

    paths = {c.card_id: str(known[c.card_id].path) if c.card_id in known else None for c in found}
    sources = {
        c.card_id: source_of(known[c.card_id].path) if c.card_id in known else None for c in found
    }
    return OverridesReport(found, paths, sources)


@dataclass(frozen=True)
class TopicsReport:
    """``drill --list-topics``: each tag with its card count and the learner's accuracy."""

    topics: list[Topic]

    def to_list(self) -> list[dict[str, Any]]:
        return [
            {"tag": t.tag, "cards": t.cards, "attempts": t.attempts, "accuracy": t.accuracy}
            for t in self.topics
        ]


def topics(workspace: Workspace) -> TopicsReport:
    from quizzer.app.choosing import load
    from quizzer.progress.stats import topics_from_totals

    cards = load(workspace).cards
    answers: dict[str, tuple[int, int]] = {}
    with workspace.existing_progress() as store:
        if store is not None:
            answers = store.answers_by_card()  # the kept totals, never the history itself
    return TopicsReport(topics_from_totals({c.id: c.tags for c in cards}, answers))
