"""``quizzer drill``: a timed mock interview."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from quizzer.cli.common import (
    DbOption,
    DeckOption,
    JsonOption,
    TagsOption,
    clock,
    db_path_for,
    screen_for,
    sources_for,
)
from quizzer.cli.habits import without_set_aside
from quizzer.cli.study import Study
from quizzer.errors import QuizzerError
from quizzer.files import check_writable
from quizzer.study import defaults

if TYPE_CHECKING:
    from quizzer.cards.deck import LoadedCard
    from quizzer.cards.model import Card
    from quizzer.progress.store import Store
    from quizzer.ui.screen import Screen

app = typer.Typer()


@app.command()
def drill(
    ctx: typer.Context,
    tag: TagsOption = None,
    minutes: Annotated[
        float, typer.Option("--minutes", "-m", min=0.5, max=240, help="Length of the drill.")
    ] = defaults.DRILL_MINUTES,
    cards: Annotated[
        int, typer.Option("--cards", "-n", min=1, help="Cards to ask.")
    ] = defaults.DRILL_CARDS,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed for the order of new cards.")
    ] = None,
    sheet: Annotated[
        Path | None,
        typer.Option("--sheet", metavar="FILE.md", help="Also write the cheat sheet here."),
    ] = None,
    list_topics: Annotated[
        bool,
        typer.Option("--list-topics", help="List the tags with card counts and your accuracy."),
    ] = False,
    no_record: Annotated[bool, typer.Option("--no-record", help="Do not save progress.")] = False,
    json: JsonOption = False,
    db: DbOption = None,
    deck: DeckOption = None,
) -> None:
    """A timed mock interview: blanks with one try and no hints, then a follow-up question.

    Grade your follow-up answers yourself (y/n or 1-4); weak ones come back in later drills.
    Example: [bold]quizzer drill --tag transformers --minutes 10 --sheet revise.md[/bold]
    """
    from quizzer.cards.deck import load_deck, select_cards
    from quizzer.progress.store import Store

    screen = screen_for(ctx)
    loaded = load_deck(sources_for(ctx, deck), cached=True)
    path = db_path_for(ctx, db)
    if list_topics:
        _list_topics(screen, loaded.cards, path, json)
        return
    if sheet is not None:
        check_writable(sheet)
    pool = select_cards(without_set_aside(ctx, db, loaded.cards), tags=list(tag or []))
    if not pool:
        what = f" with tag {', '.join(tag or [])}" if tag else ""
        raise QuizzerError(f"no cards{what} to drill")
    store = None if no_record else Store.open(path)
    try:
        chosen = _choose(pool, store, cards, seed)
        _run(screen, chosen, store, minutes, sheet)
    finally:
        if store is not None:
            store.close()


def _list_topics(screen: Screen, cards: list[LoadedCard], path: Path, json: bool) -> None:
    """Each tag with its card count and the learner's accuracy."""
    from quizzer.progress.stats import topics
    from quizzer.progress.store import Store

    attempts = []
    if path.exists():
        with Store.open(path, create=False) as store:
            attempts = store.attempts()
    rows = topics({c.id: c.tags for c in cards}, attempts)
    if json:
        screen.json(
            [
                {"tag": t.tag, "cards": t.cards, "attempts": t.attempts, "accuracy": t.accuracy}
                for t in rows
            ]
        )
    else:
        screen.topics(rows)


def _choose(
    pool: list[LoadedCard], store: Store | None, count: int, seed: int | None
) -> list[Card]:
    """Weakest and most overdue first, then new cards in a seeded random order."""
    import random

    from quizzer.progress.stats import lapses
    from quizzer.study.drill import order_for_drill

    states = store.fsrs_cards() if store else {}
    lapse_counts = {c.id: lapses(store.reviews(c.id)) for c in pool} if store else {}
    shuffled = [c.card for c in pool]
    random.Random(seed).shuffle(shuffled)
    return order_for_drill(shuffled, states, lapse_counts)[:count]


def _run(
    screen: Screen, chosen: list[Card], store: Store | None, minutes: float, sheet: Path | None
) -> None:
    """The drill itself, then its cheat sheet."""
    from quizzer.study.drill import DrillSession, cheat_sheet_markdown

    study = Study(store, "drill", chosen[0])
    session = DrillSession(
        chosen,
        study.judges,
        clock,
        minutes=minutes,
        follow_up_states=study.progress.states() if study.progress else {},
        record=study.record,
    )
    try:
        study.run(
            screen,
            session,
            show=screen.drill_event,
            keys="one try, no hints · ! to pass · /override after ✗ · /quit to stop",
            follow_ups=False,
            closing=False,
            rate_prompt=False,
        )
    finally:
        # Even after Ctrl-C: the sheet of what was missed is what the drill was for.
        # A drill left before any answer has nothing to say, and must not replace
        # the sheet an earlier drill wrote there.
        report = session.report
        if sheet is not None and report is not None:
            if report.cards:
                _write_sheet(screen, sheet, cheat_sheet_markdown(report, clock()))
            else:
                screen.note(f"nothing answered; {sheet} left as it was")


def _write_sheet(screen: Screen, sheet: Path, text: str) -> None:
    from quizzer.files import write_atomic

    try:
        write_atomic(sheet, text)
    except OSError as error:
        raise QuizzerError(f"cannot write {sheet}: {error.strerror or error}") from None
    screen.note(f"cheat sheet written to {sheet}")
