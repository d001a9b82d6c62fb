"""Choosing cards, every way a command can: by id or path, tag, words, state and count.

``list``, ``quiz``, ``review``, ``drill`` and ``export`` all choose here, and all
take the cached fast path: the deck comes from the deck cache, and cards named
by id come straight from its index without walking the deck. New cards are
introduced by level (1 fundamentals, 2 core, 3 advanced; a card without one
is core), then in deck order. Suspended and buried cards are left out of
every choice except of cards the learner named (:func:`without_set_aside`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from quizzer.errors import QuizzerError
from quizzer.progress.selection import DEFAULT_WEAK, CardState, Pick

if TYPE_CHECKING:
    from fsrs.card import CardDict

    from quizzer.app.workspace import Workspace
    from quizzer.cards.deck import Deck, LoadedCard
    from quizzer.progress.flags import CardFlags


@dataclass(frozen=True)
class CardChoice:
    """What a command asked for, in its options.

    Attributes:
        names: Card ids or card files, in the order to study them (none: the whole deck).
        tags: Only cards with one of these tags.
        search: Only cards containing every word of this text, best match first.
        state: Only due, weak or new cards (``--due``, ``--weak``, ``--new``).
        weak: How many weak cards (``--weak N``).
        limit: At most this many cards.
        shuffle: In a random order, from ``seed``.
        purpose: What the cards are for, in the message when none is left ("to quiz on").
        set_aside_too: Keep suspended and buried cards (``audit`` looks at every card).
    """

    names: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    search: str | None = None
    state: Pick | None = None
    weak: int | None = None
    limit: int | None = None
    shuffle: bool = False
    seed: int | None = None
    purpose: str = "to quiz on"
    set_aside_too: bool = False


class NothingToStudy(Exception):
    """No card is in the state asked for: a note and exit 0, not an error.

    Attributes:
        state: The state asked for.
        next_due: The soonest card not due yet, and when it falls due.
        now: The time the states were read at.
    """

    def __init__(self, state: Pick, next_due: tuple[str, datetime] | None, now: datetime) -> None:
        super().__init__(state.value)
        self.state = state
        self.next_due = next_due
        self.now = now


def state_asked(due: bool, weak: int | None, new: bool) -> Pick | None:
    """The one state asked for, if any; asking for two is a usage error."""
    asked = ((Pick.DUE, due), (Pick.WEAK, weak is not None), (Pick.NEW, new))
    states = [state for state, wanted in asked if wanted]
    if len(states) > 1:
        raise QuizzerError("choose one of --due, --weak and --new")
    return states[0] if states else None


def load(workspace: Workspace) -> Deck:
    """Every known card, from the deck cache where it is fresh."""
    from quizzer.cards.deck import load_deck

    return load_deck(workspace.sources(), cached=True)


def card_named(workspace: Workspace, name: str) -> LoadedCard:
    """The card ``name`` names (an id or a card file), from the cached fast path.

    Raises:
        CardNotFound: No such card (the message names the closest ids).
    """
    from quizzer.cards.deck import resolve_card

    return resolve_card(name, workspace.sources(), cached=True)


def filtered(
    cards: Sequence[LoadedCard], tags: Sequence[str], search: str | None
) -> list[LoadedCard]:
    """``cards`` with one of ``tags`` (all when none), then matching ``search`` if given."""
    from quizzer.cards.deck import select_cards

    chosen = select_cards(cards, tags=tags)
    if search is None:
        return chosen
    from quizzer.cards.search import search_cards

    found = search_cards(chosen, search)
    if not found:
        what = f" with tag {', '.join(tags)}" if tags else ""
        raise QuizzerError(f"no cards{what} match {search!r}")
    return found


def choose_cards(workspace: Workspace, choice: CardChoice) -> list[LoadedCard]:
    """The cards ``choice`` asks for, in study order.

    Raises:
        QuizzerError: No card matches (unknown ids raise their own error).
        NothingToStudy: Cards match, but none is in the state asked for.
    """
    chosen = _named_or_all(workspace, choice)
    if not chosen:
        tagged = f" with tag {', '.join(choice.tags)}" if choice.tags else ""
        if choice.search is not None:
            raise QuizzerError(f"no cards{tagged} match {choice.search!r}")
        raise QuizzerError(f"no cards{tagged} {choice.purpose}")
    if choice.state is None:
        return chosen
    return _by_state(workspace, chosen, choice.state, choice.weak, choice.limit)


def _named_or_all(workspace: Workspace, choice: CardChoice) -> list[LoadedCard]:
    from quizzer.cards.deck import find_cached, resolve_card, select_cards

    # A state filter applies the limit after it: --due -n 5 is the five most overdue.
    limit = None if choice.state is not None else choice.limit
    names = choice.names
    sources = workspace.sources()
    if names and choice.search is None and not any(_is_path(name) for name in names):
        # Cards named by id: take them from the cache index without walking the deck.
        quick = [find_cached(name, sources) for name in names]
        found = [card for card in quick if card is not None]
        if len(found) == len(quick):
            chosen = select_cards(
                found,
                tags=choice.tags,
                keep_order=True,
                limit=limit,
                shuffle=choice.shuffle,
                seed=choice.seed,
            )
            if chosen:
                return chosen
    deck = load(workspace)
    if names:
        picked = [
            resolve_card(name, [], cached=True) if _is_path(name) else deck.find(name)
            for name in names
        ]
        picked = select_cards(picked, tags=choice.tags, keep_order=True)
    else:
        pool = deck.cards if choice.set_aside_too else without_set_aside(workspace, deck.cards)
        picked = select_cards(pool, tags=choice.tags)
    if choice.search is not None:
        from quizzer.cards.search import search_cards

        picked = search_cards(picked, choice.search)
    return select_cards(
        picked, keep_order=True, limit=limit, shuffle=choice.shuffle, seed=choice.seed
    )


def stored_flags(workspace: Workspace) -> dict[str, CardFlags]:
    """Every suspended or buried card's flags ({} when there is no progress database)."""
    from quizzer.progress.flags import card_flags

    with workspace.existing_progress() as store:
        return {} if store is None else card_flags(store)


def without_set_aside(
    workspace: Workspace,
    cards: Sequence[LoadedCard],
    now: datetime | None = None,
    flags: dict[str, CardFlags] | None = None,
) -> list[LoadedCard]:
    """``cards`` without the suspended ones and those buried until after ``now``.

    Called wherever quiz, review, drill or export choose cards the learner did
    not name; ``flags`` when the caller has read them already.
    """
    from quizzer.progress.flags import without_set_aside as kept

    flags = stored_flags(workspace) if flags is None else flags
    if not flags:
        return list(cards)
    keep = set(kept([c.id for c in cards], flags, now or workspace.clock()))
    return [c for c in cards if c.id in keep]


def _is_path(name: str) -> bool:
    from quizzer.cards.deck import is_existing_file, looks_like_path

    return looks_like_path(name) or is_existing_file(Path(name))


def by_level(cards: Sequence[LoadedCard]) -> list[LoadedCard]:
    """``cards`` with fundamentals first, then core, then advanced; deck order within a level."""
    return sorted(cards, key=lambda card: card.level)


def _by_state(
    workspace: Workspace,
    cards: list[LoadedCard],
    state: Pick,
    weak: int | None,
    limit: int | None,
) -> list[LoadedCard]:
    from quizzer.progress.selection import choose

    states, fsrs_states = stored_states(workspace)
    now = workspace.clock()
    candidates = by_level(cards) if state is Pick.NEW else cards
    by_id = {c.id: c for c in candidates}
    scheduler = None
    if state is Pick.WEAK:  # recall by the learner's own forgetting curve
        from quizzer.progress.schedule import learner_scheduler

        with workspace.existing_progress() as store:
            scheduler = learner_scheduler(store, fuzz=False)
    chosen = choose(
        list(by_id),
        states,
        now,
        state,
        weak=weak or DEFAULT_WEAK,
        fsrs_states=fsrs_states,
        scheduler=scheduler,
    )
    if not chosen:
        later = [(s.due, c) for c, s in states.items() if c in by_id and s.due and s.due > now]
        soonest = min(later) if later else None
        raise NothingToStudy(state, (soonest[1], soonest[0]) if soonest else None, now)
    return [by_id[c] for c in chosen[:limit]]


def stored_states(
    workspace: Workspace,
) -> tuple[dict[str, CardState], dict[str, CardDict]]:
    """Card states and raw FSRS states from the progress database ({} when there is none)."""
    from quizzer.progress.selection import states_from

    with workspace.existing_progress() as store:
        if store is None:
            return {}, {}
        fsrs_states = store.fsrs_cards()
        return states_from(fsrs_states, store.review_counts()), fsrs_states


def study_days(workspace: Workspace) -> set[date]:
    """The days anything was answered (none when there is no progress database)."""
    with workspace.existing_progress() as store:
        if store is None:
            return set()
        return {date.fromisoformat(day) for day in store.study_days()}
