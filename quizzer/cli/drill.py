"""``quizzer drill``: a timed mock interview."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

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
from quizzer.cli.sessions import Judges, read_line
from quizzer.errors import ExitCode, QuizzerError

app = typer.Typer()


@app.command()
def drill(
    ctx: typer.Context,
    tag: TagsOption = None,
    minutes: Annotated[
        float, typer.Option("--minutes", "-m", min=0.5, max=240, help="Length of the drill.")
    ] = 20,
    cards: Annotated[int, typer.Option("--cards", "-n", min=1, help="Cards to ask.")] = 6,
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
    import random

    from quizzer.cards.deck import load_deck, select_cards
    from quizzer.progress.schedule import make_scheduler
    from quizzer.progress.stats import lapses
    from quizzer.progress.store import Store
    from quizzer.study.drill import DrillSession, order_for_drill
    from quizzer.study.recording import SessionProgress, rating_for

    screen = screen_for(ctx)
    loaded = load_deck(sources_for(ctx, deck), cached=True)
    path = db_path_for(ctx, db)
    if list_topics:
        attempts = []
        if path.exists():
            with Store.open(path, create=False) as store:
                attempts = store.attempts()
        from quizzer.progress.stats import topics

        rows = topics({c.id: c.tags for c in loaded.cards}, attempts)
        if json:
            screen.json(
                [
                    {"tag": t.tag, "cards": t.cards, "attempts": t.attempts, "accuracy": t.accuracy}
                    for t in rows
                ]
            )
        else:
            screen.topics(rows)
        return
    pool = select_cards(loaded.cards, tags=list(tag or []))
    if not pool:
        what = f" with tag {', '.join(tag or [])}" if tag else ""
        raise QuizzerError(f"no cards{what} to drill")
    store = None if no_record else Store.open(path)
    try:
        states = store.fsrs_cards() if store else {}
        lapse_counts: dict[str, int] = {}
        if store:
            for card in pool:
                lapse_counts[card.id] = lapses(store.reviews(card.id))
        shuffled = [c.card for c in pool]
        random.Random(seed).shuffle(shuffled)
        chosen = order_for_drill(shuffled, states, lapse_counts)[:cards]
        progress = SessionProgress(store, make_scheduler(), "drill", clock()) if store else None
        judges = Judges(chosen[0])
        session = DrillSession(
            chosen,
            judges,
            clock,
            minutes=minutes,
            follow_up_states=states,
            record=progress.record_attempt if progress else None,
        )
        interactive = sys.stdin.isatty()
        _run(screen, session, judges, progress, interactive, rating_for)
        report = session.report
        if sheet is not None and report is not None:
            from quizzer.files import write_atomic
            from quizzer.study.drill import cheat_sheet_markdown

            try:
                write_atomic(sheet, cheat_sheet_markdown(report, clock()))
            except OSError as error:
                raise QuizzerError(f"cannot write {sheet}: {error.strerror or error}") from None
            screen.note(f"cheat sheet written to {sheet}")
        if progress is not None:
            progress.end(clock())
    finally:
        if store is not None:
            store.close()


def _run(
    screen: Any, session: Any, judges: Judges, progress: Any, interactive: bool, rating_for: Any
) -> None:
    from quizzer.study.drill import FollowUpGraded
    from quizzer.study.quiz import CardFinished

    def show(events: list[Any]) -> None:
        for event in events:
            screen.drill_event(event)
            if progress is None:
                continue
            now = clock()
            if isinstance(event, CardFinished):
                rating = rating_for(event.result)
                if rating is not None:
                    progress.save_review(event.result, rating, now)
            elif isinstance(event, FollowUpGraded):
                due = progress.save_rating(event.item_id, event.rating, now, event.ms)
                screen.scheduled(event.rating, due, now)

    try:
        screen.keys_help("no hints · one try per blank · ! to pass · /quit to stop")
        show(session.start())
        judges.start()
        while not session.finished:
            kind, detail = session.prompt_state()
            prompt = screen.drill_prompt(kind, detail, session.remaining())
            line = read_line(screen, prompt, interactive)
            show(session.stop("end of input") if line is None else session.answer(line))
    except KeyboardInterrupt:
        show(session.stop("interrupted"))
        raise typer.Exit(int(ExitCode.INTERRUPTED)) from None
