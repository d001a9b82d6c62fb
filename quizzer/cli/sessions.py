"""Commands that run sessions and read progress: quiz, stats."""

from __future__ import annotations

import sys
import threading
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from quizzer.cli.common import (
    DbOption,
    DeckOption,
    JsonOption,
    db_path_for,
    screen_for,
    sources_for,
)
from quizzer.errors import ExitCode, QuizzerError

if TYPE_CHECKING:
    from quizzer.answers import CardJudge, Verdict
    from quizzer.cards import Card
    from quizzer.deck import LoadedCard

app = typer.Typer()

CardsArgument = Annotated[
    list[str] | None,
    typer.Argument(
        metavar="CARD",
        help="Card ids or card files (default: every card).",
        show_default=False,
    ),
]
TagsOption = Annotated[
    list[str] | None,
    typer.Option("--tag", "-t", metavar="TAG", help="Only cards with this tag (repeatable)."),
]


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


class Judges:
    """One judge per card, with SymPy loading in a background thread meanwhile.

    The first question is on screen before SymPy is imported; by the time the
    learner has read it and typed an answer, the judge is warm.
    """

    def __init__(self, first: Card) -> None:
        self._judges: dict[str, CardJudge] = {}
        self._thread = threading.Thread(target=self._warm, args=(first,), daemon=True)

    def start(self) -> None:
        self._thread.start()

    def _warm(self, card: Card) -> None:
        try:
            from quizzer.answers import CardJudge

            judge = CardJudge(card)
            for name, blank in card.blanks.items():
                judge.judge(name, blank.answer)  # the right path: parse, evaluate, print
                judge.judge(name, f"2*({blank.answer})")  # the wrong path: diagnosis
            self._judges[card.id] = judge
        except Exception:  # the main thread builds its own judge and reports any error
            pass

    def __call__(self, card: Card, blank: str, text: str) -> Verdict:
        if self._thread.ident is not None:
            self._thread.join()
        from quizzer.answers import CardJudge, judge_bounded

        if card.id not in self._judges:
            self._judges[card.id] = CardJudge(card)
        return judge_bounded(self._judges[card.id], blank, text)


def choose_cards(
    ctx: Any,
    names: list[str],
    tags: list[str],
    deck: list[Path] | None,
    limit: int | None,
    shuffle: bool,
    seed: int | None,
) -> list[LoadedCard]:
    from quizzer.deck import load_card_file, load_deck, looks_like_path
    from quizzer.errors import CardNotFound, InvalidCard
    from quizzer.session import select_cards

    loaded = load_deck(sources_for(ctx, deck), cached=True)
    if names:
        picked = []
        for name in names:
            if looks_like_path(name) or Path(name).is_file():
                card, problems = load_card_file(Path(name))
                if not Path(name).exists():
                    raise CardNotFound(f"no card file at {name}")
                if card is None:
                    raise InvalidCard(problems)
                picked.append(card)
            else:
                picked.append(loaded.find(name))
        chosen = [c for c in picked if not tags or set(tags) & set(c.card.tags)]
        if shuffle:
            import random

            random.Random(seed).shuffle(chosen)
        chosen = chosen[:limit] if limit is not None else chosen
    else:
        chosen = select_cards(loaded.cards, tags=tags, limit=limit, shuffle=shuffle, seed=seed)
    if not chosen:
        what = f" with tag {', '.join(tags)}" if tags else ""
        raise QuizzerError(f"no cards{what} to quiz on")
    return chosen


def read_line(screen: Any, prompt: str, interactive: bool) -> str | None:
    """The next line typed, or None at the end of input (Ctrl-D, end of a pipe)."""
    if interactive:
        try:
            return screen.ask(prompt)
        except EOFError:
            return None
    line = sys.stdin.readline()
    return None if line == "" else line.rstrip("\n")


@app.command()
def quiz(
    ctx: typer.Context,
    cards: CardsArgument = None,
    tag: TagsOption = None,
    limit: Annotated[
        int | None, typer.Option("--limit", "-n", min=1, help="At most N cards.")
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed for --shuffle.")] = None,
    shuffle: Annotated[bool, typer.Option("--shuffle", help="Random order.")] = False,
    tries: Annotated[int, typer.Option("--tries", min=1, max=10, help="Tries per blank.")] = 3,
    brief: Annotated[
        bool, typer.Option("--brief", help="After each card show only red flags and bullets.")
    ] = False,
    no_record: Annotated[
        bool, typer.Option("--no-record", help="Do not save progress (try a card as an author).")
    ] = False,
    db: DbOption = None,
    deck: DeckOption = None,
) -> None:
    """Quiz yourself: fill in each blank, then read the explanation and follow-ups.

    Piped input answers one blank per line and never waits for a key.
    Examples: [bold]quizzer quiz attention[/bold]
    or [bold]printf 'sqrt(d_k)\\nV\\n' | quizzer quiz attention[/bold]
    """
    from quizzer.session import KEYS_HELP, QuizSession

    screen = screen_for(ctx)
    chosen = choose_cards(ctx, list(cards or []), list(tag or []), deck, limit, shuffle, seed)
    store = None
    session_id = None
    if not no_record:
        from quizzer.store import Store

        store = Store.open(db_path_for(ctx, db))
        session_id = store.start_session("quiz", utc_now())
    judges = Judges(chosen[0].card)
    record = (lambda attempt: store.record_attempt(session_id, attempt)) if store else None
    session = QuizSession([c.card for c in chosen], judges, utc_now, tries=tries, record=record)
    interactive = sys.stdin.isatty()

    def wait(prompt: str) -> bool:
        return read_line(screen, prompt, interactive) is not None

    def show(events: list[Any]) -> None:
        for event in events:
            screen.session_event(event, interactive=interactive, brief=brief, wait=wait)

    try:
        screen.keys_help(KEYS_HELP)
        show(session.start())
        judges.start()
        while not session.finished:
            line = read_line(screen, screen.blank_prompt(session.asking()), interactive)
            show(session.stop("end of input") if line is None else session.answer(line))
    except KeyboardInterrupt:
        show(session.stop("interrupted"))
        raise typer.Exit(int(ExitCode.INTERRUPTED)) from None
    finally:
        if store is not None:
            try:
                store.end_session(session_id or 0, utc_now())
            finally:
                store.close()


@app.command()
def stats(ctx: typer.Context, db: DbOption = None, json: JsonOption = False) -> None:
    """Your progress: answers judged, accuracy, cards seen.

    Example: [bold]quizzer stats --json[/bold]
    """
    from quizzer.store import Store, Totals

    screen = screen_for(ctx)
    path = db_path_for(ctx, db)
    if path.exists():
        with Store.open(path, create=False) as store:
            totals = store.totals()
    else:
        totals = Totals(attempts=0, correct=0, cards_seen=0, sessions=0)
    if json:
        screen.json(
            {
                "attempts": totals.attempts,
                "correct": totals.correct,
                "cards_seen": totals.cards_seen,
                "accuracy": totals.accuracy,
                "sessions": totals.sessions,
            }
        )
    else:
        screen.stats(totals, str(path))
