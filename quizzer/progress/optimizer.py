"""Fitting FSRS to the learner's own reviews, and rescheduling every card with the fit.

The optimiser is fsrs-rs (the Rust FSRS that Anki uses) through ``fsrs-rs-python``:
its 21 FSRS-6 weights are the ones py-fsrs's :class:`fsrs.Scheduler` takes, in the
same order. It is imported here, inside the functions, never at start-up.

Reviews are read from SQLite in the order FSRS needs (per card, oldest first) as a
stream; each review after a card's first is one training item (the card's history
up to it, with the days between reviews). Metrics are fsrs-rs's own ``evaluate``:
log loss, and RMSE over bins of predicted recall (``rmse_bins``, the FSRS
benchmark's RMSE), for FSRS's default weights and for the fitted ones.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, Any

from quizzer.errors import ExitCode, QuizzerError
from quizzer.progress.parameters import save_parameters
from quizzer.progress.stored import VALID_REVIEW_SQL, iso, read_state

if TYPE_CHECKING:
    from fsrs_rs_python import FSRSItem

    from quizzer.progress.store import Store

#: Anki asks for about this many reviews before it fits; fewer and the fit is noise.
MIN_REVIEWS = 400
#: Training items per card at most (its first reviews): item k holds k reviews, so a
#: card reviewed thousands of times would make the items quadratic; fsrs-rs trains on
#: sequences up to 256 long (its ``max_seq_len``) anyway.
MAX_ITEMS_PER_CARD = 256
#: The most recent part of the history, by time, kept out of the held-out fit.
HELD_OUT = 0.2
#: py-fsrs's longest interval, in days.
MAXIMUM_INTERVAL = 36500


class NotEnoughHistory(QuizzerError):
    """Too few reviews to fit: exit 1, nothing changed."""

    exit_code = ExitCode.NOT_OK


@dataclass(frozen=True)
class Metrics:
    log_loss: float
    rmse: float


@dataclass(frozen=True)
class Fit:
    """What ``optimize`` found: the parameters, and how well each set predicts the history."""

    reviews: int
    cards: int
    parameters: list[float]
    before: Metrics  # FSRS's defaults, on every review
    after: Metrics  # the fitted parameters, on the same reviews
    held_out_reviews: int
    held_out_before: Metrics | None  # defaults on the latest reviews
    held_out_after: Metrics | None  # fitted without those reviews, on them


@dataclass(frozen=True)
class _Item:
    last_at: str  # when its last review was (the time split orders by it)
    item: FSRSItem


def _histories(
    store: Store, card_ids: Collection[str] | None, first: int | None = None
) -> Iterator[tuple[str, list[tuple[int, str]]]]:
    """Each card's valid reviews as (rating, time), oldest first, one card at a time.

    The ``reviews_by_card`` index gives SQL's order; only one card's history is in
    memory. ``first``: only each card's first reviews, cut in SQLite (a window).
    """
    current: str | None = None
    history: list[tuple[int, str]] = []
    query = f"SELECT card_id, rating, at FROM reviews WHERE {VALID_REVIEW_SQL}"
    if first is not None:
        query = (
            "SELECT card_id, rating, at FROM (SELECT card_id, rating, at, id,"
            " row_number() OVER (PARTITION BY card_id ORDER BY at, id) AS n"
            f" FROM reviews WHERE {VALID_REVIEW_SQL}) WHERE n <= {int(first)}"
        )
    rows = store.connection.execute(query + " ORDER BY card_id, at, id")
    for card_id, rating, at in rows:
        if card_ids is not None and not chosen(card_id, card_ids):
            continue
        if card_id != current:
            if current is not None:
                yield current, history
            current, history = card_id, []
        history.append((int(rating), str(at)))
    if current is not None:
        yield current, history


def chosen(card_id: str, card_ids: Collection[str]) -> bool:
    """Whether a review item is one of ``card_ids`` (``card#follow-N`` goes with its card)."""
    return card_id.split("#")[0] in card_ids


def _day(at: str) -> int:
    return date.fromisoformat(at[:10]).toordinal()


def _reviews(history: Sequence[tuple[int, str]]) -> list[Any]:
    """FSRS reviews: the rating and the whole days since the one before (0 the same day)."""
    from fsrs_rs_python import FSRSReview

    days = [_day(at) for _, at in history]
    return [
        FSRSReview(rating, days[i] - days[i - 1] if i else 0)
        for i, (rating, _) in enumerate(history)
    ]


def count_reviews(store: Store, card_ids: Collection[str] | None) -> tuple[int, int]:
    """How many valid reviews and reviewed cards there are (``card_ids``: only those)."""
    if card_ids is None:
        row = store.connection.execute(
            f"SELECT count(*), count(DISTINCT card_id) FROM reviews WHERE {VALID_REVIEW_SQL}"
        ).fetchone()
        return int(row[0]), int(row[1])
    rows = store.connection.execute(
        f"SELECT card_id, count(*) FROM reviews WHERE {VALID_REVIEW_SQL} GROUP BY card_id"
    ).fetchall()
    counts = [n for card, n in rows if chosen(card, card_ids)]
    return sum(counts), len(counts)


def training_items(store: Store, card_ids: Collection[str] | None) -> list[_Item]:
    """One item per review after a card's first (up to :data:`MAX_ITEMS_PER_CARD` a card)."""
    from fsrs_rs_python import FSRSItem

    items = []
    for _, history in _histories(store, card_ids, MAX_ITEMS_PER_CARD + 1):
        reviews = _reviews(history)
        for end in range(2, len(history) + 1):
            # An item predicts its last review; one on the day of the review before
            # says nothing about long-term memory, which is what FSRS's weights model.
            if _day(history[end - 1][1]) > _day(history[end - 2][1]):
                items.append(_Item(history[end - 1][1], FSRSItem(reviews[:end])))
    return items


def _metrics(parameters: Sequence[float], items: Sequence[Any]) -> Metrics:
    from fsrs_rs_python import FSRS

    evaluation = FSRS(list(parameters)).evaluate(list(items))
    return Metrics(float(evaluation.log_loss), float(evaluation.rmse_bins))


def _fitted(items: Sequence[Any]) -> list[float]:
    from fsrs_rs_python import DEFAULT_PARAMETERS, FSRS

    try:
        return [float(w) for w in FSRS(DEFAULT_PARAMETERS).compute_parameters(list(items))]
    except Exception as error:  # fsrs-rs raises plain exceptions (e.g. not enough data)
        raise NotEnoughHistory(f"your reviews cannot be fitted yet ({error})") from None


def fit(store: Store, card_ids: Collection[str] | None = None) -> Fit:
    """Fit FSRS to the stored reviews (of ``card_ids`` only, if given); saves nothing.

    Raises:
        NotEnoughHistory: fewer than :data:`MIN_REVIEWS` reviews, or none fsrs-rs can use.
    """
    from fsrs_rs_python import DEFAULT_PARAMETERS

    reviews, cards = count_reviews(store, card_ids)
    if reviews < MIN_REVIEWS:
        raise NotEnoughHistory(
            f"optimize needs at least {MIN_REVIEWS} reviews (you have {reviews})"
        )
    items = training_items(store, card_ids)
    if not items:
        raise NotEnoughHistory("your reviews cannot be fitted yet: none came a day or more apart")
    fitted = _fitted([i.item for i in items])
    every = [i.item for i in items]
    ordered = sorted(items, key=lambda i: i.last_at)
    cut = int(len(ordered) * (1 - HELD_OUT))
    train, test = [i.item for i in ordered[:cut]], [i.item for i in ordered[cut:]]
    held_before = held_after = None
    if train and test:
        try:
            held_parameters = _fitted(train)
        except NotEnoughHistory:
            held_parameters = None
        if held_parameters is not None:
            held_before = _metrics(DEFAULT_PARAMETERS, test)
            held_after = _metrics(held_parameters, test)
    return Fit(
        reviews=reviews,
        cards=cards,
        parameters=fitted,
        before=_metrics(DEFAULT_PARAMETERS, every),
        after=_metrics(fitted, every),
        held_out_reviews=len(test) if held_after else 0,
        held_out_before=held_before,
        held_out_after=held_after,
    )


def rescheduled_state(state: dict[str, Any], memory: Any, interval_days: float) -> dict[str, Any]:
    """A stored FSRS state with the memory the new parameters give its history.

    A card in review gets its due date from the new stability (from its last review);
    one still in its (re)learning steps keeps its step and due time.
    """
    new = dict(state, stability=float(memory.stability), difficulty=float(memory.difficulty))
    last = state.get("last_review")
    if state.get("state") == 2 and isinstance(last, str):
        days = min(MAXIMUM_INTERVAL, max(1, round(interval_days)))
        new["due"] = (datetime.fromisoformat(last) + timedelta(days=days)).isoformat()
    return new


def save_and_reschedule(
    store: Store,
    result: Fit,
    desired_retention: float,
    now: datetime,
    tag: str | None = None,
    *,
    on_card: Callable[[str], None] | None = None,
) -> int:
    """Save the parameters and reschedule every card from its reviews, in ONE transaction.

    A kill or an error part-way leaves the old parameters and the old schedule: SQLite
    rolls the whole transaction back.

    Args:
        store: The progress store.
        result: The fit whose parameters are saved.
        desired_retention: The recall the new due dates aim at.
        now: The time of the fit (UTC).
        tag: The tag it was fitted on, if any (kept with the parameters).
        on_card: Called before each card is written (tests kill the process there).

    Returns:
        How many cards were rescheduled.
    """
    from fsrs_rs_python import FSRS, FSRSItem

    model = FSRS(result.parameters)
    states = {
        card_id: data
        for card_id, data in store.connection.execute("SELECT card_id, fsrs_card FROM schedule")
    }
    changed = 0
    with store.writing() as db:
        save_parameters(db, result.parameters, now, result.reviews, tag)
        for card_id, history in _histories(store, None):
            state = read_state(states.get(card_id))
            if state is None:
                continue  # never scheduled, or damaged: its next review writes a sound state
            memory = model.memory_state(FSRSItem(_reviews(history)))
            interval = model.next_interval(memory.stability, desired_retention, 3)
            if on_card is not None:
                on_card(card_id)
            db.execute(
                "UPDATE schedule SET fsrs_card = ?, updated_at = ? WHERE card_id = ?",
                (
                    json.dumps(rescheduled_state(dict(state), memory, interval)),
                    iso(now),
                    card_id,
                ),
            )
            changed += 1
    return changed
