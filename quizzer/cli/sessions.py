"""Commands that run sessions: quiz and review."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from quizzer.cli.choosing import (
    DueOption,
    NewOption,
    OptionalCountCommand,
    WeakOption,
    cards_by_state,
    pick_of,
)
from quizzer.cli.common import (
    DbOption,
    DeckOption,
    TagsOption,
    clock,
    complete_card,
    db_path_for,
    screen_for,
    sources_for,
)
from quizzer.cli.habits import without_set_aside
from quizzer.cli.study import Study
from quizzer.errors import QuizzerError
from quizzer.study import defaults

if TYPE_CHECKING:
    from quizzer.cards.deck import LoadedCard
    from quizzer.cards.model import Card
    from quizzer.progress.store import Store
    from quizzer.study.events import Event

app = typer.Typer()

CardsArgument = Annotated[
    list[str] | None,
    typer.Argument(
        metavar="[CARD]...",
        help="Card ids or card files (default: every card).",
        show_default=False,
        autocompletion=complete_card,
    ),
]
TriesOption = Annotated[
    int, typer.Option("--tries", min=1, max=defaults.MAX_TRIES, help="Tries per blank.")
]
BriefOption = Annotated[
    bool, typer.Option("--brief", help="After each card show only red flags and bullets.")
]
RatePromptOption = Annotated[
    bool,
    typer.Option(
        "--rate-prompt/--no-rate-prompt",
        help="In a terminal, show each card's rating and let one key change it.",
    ),
]


def choose_cards(
    ctx: Any,
    names: list[str],
    tags: list[str],
    deck: list[Path] | None,
    limit: int | None,
    shuffle: bool,
    seed: int | None,
    purpose: str = "to quiz on",
    db: Path | None = None,
) -> list[LoadedCard]:
    from quizzer.cards.deck import find_cached, load_deck, resolve_card, select_cards

    sources = sources_for(ctx, deck)
    if names and not any(_is_path(name) for name in names):
        # Cards named by id: take them from the cache index without walking the deck.
        quick = [find_cached(name, sources) for name in names]
        found = [card for card in quick if card is not None]
        if len(found) == len(quick):
            chosen = select_cards(
                found, tags=tags, limit=limit, shuffle=shuffle, seed=seed, keep_order=True
            )
            if chosen:
                return chosen
    loaded = load_deck(sources, cached=True)
    if names:
        picked = [
            resolve_card(name, [], cached=True) if _is_path(name) else loaded.find(name)
            for name in names
        ]
        chosen = select_cards(
            picked, tags=tags, limit=limit, shuffle=shuffle, seed=seed, keep_order=True
        )
    else:
        # Suspended and buried cards are left out unless named.
        pool = without_set_aside(ctx, db, loaded.cards)
        chosen = select_cards(pool, tags=tags, limit=limit, shuffle=shuffle, seed=seed)
    if not chosen:
        what = f" with tag {', '.join(tags)}" if tags else ""
        raise QuizzerError(f"no cards{what} {purpose}")
    return chosen


def _is_path(name: str) -> bool:
    from quizzer.cards.deck import looks_like_path

    return looks_like_path(name) or Path(name).is_file()


def run_session(
    ctx: Any,
    cards: list[Card],
    *,
    mode: str,
    tries: int,
    brief: bool,
    store: Store | None,
    rate_prompt: bool,
) -> None:
    """Quiz or review ``cards`` in the terminal (or from a pipe) until the session ends."""
    from quizzer.study.quiz import KEYS_HELP, QuizSession

    screen = screen_for(ctx)
    study = Study(store, mode, cards[0])
    session = QuizSession(cards, study.judges, clock, tries=tries, record=study.record)

    def show(event: Event) -> None:
        screen.session_event(event, brief=brief)

    study.run(
        screen,
        session,
        show=show,
        keys=KEYS_HELP,
        follow_ups=not brief,
        closing=True,
        rate_prompt=rate_prompt,
    )


def open_store(ctx: Any, db: Path | None) -> Store:
    from quizzer.progress.store import Store

    return Store.open(db_path_for(ctx, db))


@app.command(cls=OptionalCountCommand)
def quiz(
    ctx: typer.Context,
    cards: CardsArgument = None,
    tag: TagsOption = None,
    limit: Annotated[
        int | None, typer.Option("--limit", "-n", min=1, help="At most N cards.")
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed for --shuffle.")] = None,
    shuffle: Annotated[bool, typer.Option("--shuffle", help="Random order.")] = False,
    tries: TriesOption = defaults.TRIES,
    brief: BriefOption = False,
    no_record: Annotated[
        bool, typer.Option("--no-record", help="Do not save progress (try a card as an author).")
    ] = False,
    rate_prompt: RatePromptOption = True,
    db: DbOption = None,
    deck: DeckOption = None,
    due: DueOption = False,
    weak: WeakOption = None,
    new: NewOption = False,
) -> None:
    """Quiz yourself: fill in each blank, then read the explanation and follow-ups.

    Piped input answers one blank per line and never waits for a key.
    Examples: [bold]quizzer quiz attention[/bold], [bold]quizzer quiz --due --tag adam[/bold]
    or [bold]printf 'sqrt(d_k)\\nV\\n' | quizzer quiz attention[/bold]
    """
    pick = pick_of(due, weak, new)
    chosen = choose_cards(
        ctx, list(cards or []), list(tag or []), deck, None if pick else limit, shuffle, seed, db=db
    )
    if pick is not None:
        chosen = cards_by_state(ctx, db, chosen, pick, weak, limit)
    store = None if no_record else open_store(ctx, db)
    try:
        run_session(
            ctx,
            [c.card for c in chosen],
            mode="quiz",
            tries=tries,
            brief=brief,
            store=store,
            rate_prompt=rate_prompt,
        )
    finally:
        if store is not None:
            store.close()


@app.command()
def review(
    ctx: typer.Context,
    limit: Annotated[
        int | None, typer.Option("--limit", "-n", min=1, help="At most N cards.")
    ] = None,
    new: Annotated[
        int,
        typer.Option(
            "--new",
            min=0,
            help="New cards a day, after the due ones (default: `quizzer config new_per_day`).",
        ),
    ] = defaults.NEW_PER_DAY,
    tag: TagsOption = None,
    tries: TriesOption = defaults.TRIES,
    brief: BriefOption = False,
    rate_prompt: RatePromptOption = True,
    db: DbOption = None,
    deck: DeckOption = None,
) -> None:
    """Review what you are about to forget: due cards first, then a few new ones.

    Example: [bold]quizzer review --limit 20[/bold]
    """
    from quizzer.cards.deck import load_deck, select_cards
    from quizzer.progress.schedule import plan_review
    from quizzer.study.recording import new_cards_seen_on

    screen = screen_for(ctx)
    loaded = load_deck(sources_for(ctx, deck), cached=True)
    candidates = select_cards(loaded.cards, tags=list(tag or []))
    by_id = {c.id: c.card for c in candidates}
    store = open_store(ctx, db)
    try:
        now = clock()
        source = ctx.get_parameter_source("new")
        if source is None or source.name == "DEFAULT":  # no --new: the learner's setting
            from quizzer.progress.settings import read_settings

            new = read_settings(store).new_per_day
        plan = plan_review(
            [c.id for c in without_set_aside(ctx, db, candidates, now)],
            store.fsrs_cards(),
            now,
            limit=limit,
            new_limit=new,
            new_seen_today=new_cards_seen_on(store, now.date()),
        )
        if not plan.cards:
            screen.nothing_due(plan.next_due, now)
            return
        screen.review_plan(len(plan.due), len(plan.new))
        run_session(
            ctx,
            [by_id[c] for c in plan.cards],
            mode="review",
            tries=tries,
            brief=brief,
            store=store,
            rate_prompt=rate_prompt,
        )
    finally:
        store.close()
