"""The one environment a command runs in, built once from its options and the process's.

Decks, the progress database, the clock, whether a person is typing and
whether to use colour used to be read from ``os.environ``, ``sys.stdin`` and
the command's options in six places. A :class:`Workspace` reads them once; a
command's own ``--deck``/``--db`` (given after its name) make a copy with
:meth:`Workspace.with_options`.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

from quizzer.errors import QuizzerError

if TYPE_CHECKING:
    from quizzer.progress.store import Store

NOW_ENV = "QUIZZER_NOW"
#: The years QUIZZER_NOW may name.
NOW_YEARS = (1970, 9000)


@dataclass(frozen=True)
class Workspace:
    """Where a command finds its cards and progress, and how it meets its user.

    Attributes:
        decks: Extra deck paths (``--deck``), after the bundled deck and QUIZZER_DECKS.
        db: The progress database asked for (``--db``), else QUIZZER_DB or the default.
        now_text: QUIZZER_NOW as given: the clock stands still there (tests, demos).
        interactive: A person is typing at a terminal, rather than a pipe or a file.
        colour: Output may use colour (not ``--no-color`` nor NO_COLOR).
        debug: Show tracebacks (``--debug`` or QUIZZER_DEBUG=1).
        environ: The environment the deck list is read from (QUIZZER_DECKS).
    """

    decks: tuple[Path, ...] = ()
    db: Path | None = None
    now_text: str | None = None
    interactive: bool = False
    colour: bool = True
    debug: bool = False
    environ: Mapping[str, str] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_environment(
        cls,
        *,
        decks: Sequence[Path] = (),
        db: Path | None = None,
        no_color: bool = False,
        debug: bool = False,
        environ: Mapping[str, str] | None = None,
    ) -> Workspace:
        """The workspace of this process: its options, its environment, its standard input."""
        env = dict(os.environ if environ is None else environ)
        stdin = sys.stdin
        return cls(
            decks=tuple(decks),
            db=db,
            now_text=env.get(NOW_ENV) or None,
            interactive=bool(stdin is not None and stdin.isatty()),
            colour=not (no_color or env.get("NO_COLOR")),
            debug=debug or env.get("QUIZZER_DEBUG") == "1",
            environ=env,
        )

    def with_options(
        self, decks: Sequence[Path] | None = None, db: Path | None = None
    ) -> Workspace:
        """This workspace with a command's own ``--deck`` (added) and ``--db`` (preferred)."""
        return replace(self, decks=(*self.decks, *(decks or ())), db=db or self.db)

    # --- cards ---------------------------------------------------------------------

    def sources(self) -> list[Path]:
        """Bundled deck, QUIZZER_DECKS, then every --deck, in that order."""
        from quizzer.cards.finding import deck_sources

        return deck_sources(list(self.decks), self.environ)

    # --- time ----------------------------------------------------------------------

    def clock(self) -> datetime:
        """The current time in UTC; QUIZZER_NOW (ISO 8601) holds it still."""
        if not self.now_text:
            return datetime.now(timezone.utc)
        return parse_now(self.now_text)

    # --- progress ------------------------------------------------------------------

    @property
    def db_path(self) -> Path:
        """--db, else QUIZZER_DB, else the user data folder."""
        if self.db is not None:
            return self.db
        from quizzer.progress.store import default_path

        return default_path(self.environ)

    def open_progress(self) -> Store:
        """The progress database, created if need be (studying writes to it)."""
        from quizzer.progress.store import Store

        return Store.open(self.db_path)

    @contextmanager
    def existing_progress(self) -> Iterator[Store | None]:
        """The progress database if there is one, else None: nothing is created for a read.

        Every command that only reads progress (list, status, stats, overrides,
        drill --list-topics, export, reset) opens it through here.
        """
        path = self.db_path
        if not path.exists():
            yield None
            return
        from quizzer.progress.store import Store

        with Store.open(path, create=False) as store:
            yield store


def parse_now(text: str) -> datetime:
    """QUIZZER_NOW read as an aware UTC time; a bad one is one clear error."""
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
        moment = moment.replace(tzinfo=timezone.utc) if moment.tzinfo is None else moment
        moment = moment.astimezone(timezone.utc)
    except (ValueError, OverflowError):
        raise QuizzerError(f"{NOW_ENV} is not an ISO 8601 time: {text!r}") from None
    if not NOW_YEARS[0] <= moment.year <= NOW_YEARS[1]:
        # Schedules reach years ahead; datetime stops at 9999 and would fail mid-session.
        raise QuizzerError(
            f"{NOW_ENV} is out of range: {text!r} (use a year from {NOW_YEARS[0]}"
            f" to {NOW_YEARS[1]})"
        )
    return moment
