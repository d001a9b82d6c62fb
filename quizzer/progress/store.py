"""Progress in one SQLite file: every read and write of the progress database.

Every attempt is committed as soon as it is judged, so Ctrl-C or a killed
process loses nothing already answered. The file is in WAL mode; a second
quizzer process waits its turn (saying so) instead of failing at once.

A quizzer database is marked with ``PRAGMA application_id``; a file that is
not SQLite, or is someone else's SQLite, is refused and never written to.
The schema version lives in ``PRAGMA user_version``; :mod:`.migrations`
takes any older quizzer file forward, one step at a time (:mod:`.opening`
checks, migrates and sets up a file as it is opened). SQLite itself is
reached through :mod:`.database` (errors, waiting, the one transaction
helper); every stored value is read through :mod:`.stored`, so a damaged row
is a warning and a card treated as new, never a crash.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from quizzer.progress import opening
from quizzer.progress.database import (
    QUIET_WAIT_MS,
    StoreError,
    cannot_write,
    check_header,
    existing_database,
    operational,
    patiently,
    remove_empty,
    transaction,
)
from quizzer.progress.migrations import MIGRATIONS, SCHEMA_VERSION
from quizzer.progress.opening import APPLICATION_ID
from quizzer.progress.stored import (
    VALID_ATTEMPT_SQL,
    VALID_REVIEW_SQL,
    Attempt,
    Damage,
    Review,
    Totals,
    iso,
    read_review_log,
    read_state,
    stored_time,
)

if TYPE_CHECKING:
    from fsrs.card import CardDict


# What callers import from here, though other modules define it.
__all__ = [
    "APPLICATION_ID",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "Attempt",
    "Review",
    "StoreError",
    "Totals",
    "iso",
]

DB_ENV = "QUIZZER_DB"
#: Characters of an answer kept (the judge reads at most 1,000; a backup entry takes 100,000).
MAX_GIVEN = 10_000
#: Names SQLite reads as a database kept in memory: progress there would be lost on exit.
_IN_MEMORY = (":memory:", "file:")
T = TypeVar("T")


def default_path(env: Mapping[str, str] | None = None) -> Path:
    """``QUIZZER_DB``, else ``progress.db`` in the user data folder."""
    env = os.environ if env is None else env
    if env.get(DB_ENV):
        return Path(env[DB_ENV]).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("quizzer", appauthor=False)) / "progress.db"


class Store:
    """An open progress database. Use :meth:`open`; close with :meth:`close` or ``with``.

    ``on_warning`` hears what the learner should know while the command goes
    on: each damaged row (once per card) and a wait for another quizzer.
    """

    def __init__(
        self,
        path: Path,
        connection: sqlite3.Connection,
        on_warning: Callable[[str], None] | None = None,
    ) -> None:
        from quizzer.files import report_warning

        self.path = path
        self.connection = connection
        self.on_warning = on_warning or report_warning
        #: Every damaged row found so far, once per card and kind.
        self.damaged: list[Damage] = []
        self._resources = ExitStack()

    # -- opening ----------------------------------------------------------------

    @classmethod
    def open(
        cls,
        path: Path | str,
        *,
        create: bool = True,
        on_warning: Callable[[str], None] | None = None,
    ) -> Store:
        """Open (and create or migrate) the database at ``path``.

        Raises :class:`StoreError` for a file that is not a quizzer database;
        such a file is left untouched.
        """
        if str(path).startswith(_IN_MEMORY):
            raise StoreError(
                f"the progress database must be a file, not {str(path)[:40]!r}"
                " (progress kept in memory would be lost when quizzer ends)"
            )
        path = Path(path)
        exists = existing_database(path)
        if exists:
            check_header(path)
        elif not create:
            raise StoreError(f"no progress database at {path}")
        else:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise StoreError(f"cannot create folder for progress: {error}") from None
        try:
            connection = sqlite3.connect(path, timeout=QUIET_WAIT_MS / 1000, isolation_level=None)
        except sqlite3.Error as error:
            raise operational(path, error) from None
        store = cls(path, connection, on_warning)
        try:
            store._wait(store._prepare)
        except sqlite3.Error as error:
            connection.close()
            if exists and cannot_write(error):
                return cls._open_read_only(path, on_warning)
            if not exists:
                remove_empty(path)  # a new file that could not be set up holds nothing
            raise operational(path, error) from None
        except BaseException:
            connection.close()
            raise
        store._protect()
        return store

    def _protect(self) -> None:
        from quizzer.files import protected

        # While it is open, no export may replace this database or its WAL.
        self._resources.enter_context(protected(self.path))

    @classmethod
    def _open_read_only(cls, path: Path, on_warning: Callable[[str], None] | None = None) -> Store:
        """Open a database this process may not write (its file or its folder is read-only).

        Every read works; a write fails with a "read-only" :class:`StoreError`
        (:func:`.opening.read_only_connection` says how it is read).
        """
        resources = ExitStack()
        try:
            connection = opening.read_only_connection(path, resources)
        except sqlite3.Error as error:
            raise operational(path, error) from None
        store = cls(path, connection, on_warning)
        store._resources.enter_context(resources)
        store._protect()
        return store

    def _prepare(self) -> None:
        opening.prepare(self.connection, self.path)

    def close(self) -> None:
        self.connection.close()
        self._resources.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _wait(self, action: Callable[[], T]) -> T:
        return patiently(self.connection, self.path, self.on_warning, action)

    @contextmanager
    def writing(self) -> Iterator[sqlite3.Connection]:
        """One committed transaction, with SQLite errors turned into :class:`StoreError`."""
        try:
            with transaction(self.connection, wait=self._wait) as db:
                yield db
        except sqlite3.Error as error:
            raise operational(self.path, error) from None

    def _damage(self, card_id: object, what: str) -> None:
        damage = Damage(str(card_id), what)
        if damage not in self.damaged:
            self.damaged.append(damage)
            self.on_warning(damage.message)

    # -- writing ------------------------------------------------------------------

    def start_session(self, mode: str, started_at: datetime) -> int:
        with self.writing() as db:
            cursor = db.execute(
                "INSERT INTO sessions (mode, started_at) VALUES (?, ?)", (mode, iso(started_at))
            )
            return int(cursor.lastrowid or 0)

    def end_session(self, session_id: int, ended_at: datetime) -> None:
        with self.writing() as db:
            db.execute("UPDATE sessions SET ended_at = ? WHERE id = ?", (iso(ended_at), session_id))

    def record_attempt(self, session_id: int | None, attempt: Attempt) -> None:
        """Save one attempt, committed before this returns.

        An answer longer than :data:`MAX_GIVEN` characters (a paste gone wrong) is
        kept cut short, so every stored attempt fits in a backup that imports.
        """
        if len(attempt.given) > MAX_GIVEN:
            attempt = replace(attempt, given=attempt.given[:MAX_GIVEN] + "…")
        with self.writing() as db:
            db.execute(
                "INSERT INTO attempts"
                " (session_id, card_id, blank, given, correct, try, hints, ms, at, overridden,"
                " revealed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (session_id, *attempt.to_row(), int(attempt.revealed)),
            )

    def save_review(self, review: Review, fsrs_card: Mapping[str, Any]) -> None:
        """Store a review and the card's new FSRS state together, in one transaction."""
        with self.writing() as db:
            db.execute(
                "INSERT INTO reviews (session_id, card_id, rating, review_log, at)"
                " VALUES (?, ?, ?, ?, ?)",
                (
                    review.session_id,
                    review.card_id,
                    review.rating,
                    json.dumps(review.review_log),
                    iso(review.at),
                ),
            )
            db.execute(
                "INSERT INTO schedule (card_id, fsrs_card, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT(card_id) DO UPDATE SET fsrs_card = excluded.fsrs_card,"
                " updated_at = excluded.updated_at",
                (review.card_id, json.dumps(fsrs_card), iso(review.at)),
            )

    def replace_review(self, review: Review, fsrs_card: Mapping[str, Any]) -> None:
        """Replace the card's last review in ``review.session_id`` (a changed rating)."""
        with self.writing() as db:
            db.execute(
                "UPDATE reviews SET rating = ?, review_log = ?, at = ? WHERE id = (SELECT"
                " max(id) FROM reviews WHERE session_id IS ? AND card_id = ?)",
                (
                    review.rating,
                    json.dumps(review.review_log),
                    iso(review.at),
                    review.session_id,
                    review.card_id,
                ),
            )
            db.execute(
                "UPDATE schedule SET fsrs_card = ?, updated_at = ? WHERE card_id = ?",
                (json.dumps(fsrs_card), iso(review.at), review.card_id),
            )

    def override_attempt(
        self, session_id: int | None, card_id: str, blank: str, try_number: int
    ) -> None:
        """Mark a judged attempt of this session correct by the learner's override."""
        with self.writing() as db:
            db.execute(
                "UPDATE attempts SET correct = 1, overridden = 1 WHERE id = (SELECT max(id)"
                " FROM attempts WHERE session_id IS ? AND card_id = ? AND blank = ? AND try = ?)",
                (session_id, card_id, blank, try_number),
            )

    def save_fingerprints(self, card_id: str, fingerprints: dict[str, tuple[str, str]]) -> None:
        """Remember each blank's answer (fingerprint, text) as it was when last reviewed."""
        with self.writing() as db:
            db.executemany(
                "INSERT INTO answer_fingerprints (card_id, blank, fingerprint, answer)"
                " VALUES (?, ?, ?, ?) ON CONFLICT(card_id, blank) DO UPDATE SET"
                " fingerprint = excluded.fingerprint, answer = excluded.answer",
                [(card_id, blank, fp, text) for blank, (fp, text) in fingerprints.items()],
            )

    def reset(self, card_id: str | None = None) -> int:
        """Forget progress (of one card, or all of it). Returns the attempts removed."""
        where, args = ("WHERE card_id = ?", (card_id,)) if card_id else ("", ())
        with self.writing() as db:
            removed = db.execute(f"DELETE FROM attempts {where}", args).rowcount
            for table in ("reviews", "schedule", "answer_fingerprints"):
                db.execute(f"DELETE FROM {table} {where}", args)
            if card_id is None:
                db.execute("DELETE FROM sessions")
        return int(removed)

    # -- reading: every stored value through quizzer.progress.stored ---------------

    def fsrs_cards(self) -> dict[str, CardDict]:
        """Every scheduled card's FSRS state, by card id.

        A damaged state is reported (once) and left out: the card counts as new,
        and its next review writes a sound state over it.
        """
        states: dict[str, CardDict] = {}
        for card_id, data in self._rows("SELECT card_id, fsrs_card FROM schedule"):
            state = read_state(data)
            if state is None or not isinstance(card_id, str):
                self._damage(card_id, "schedule")
            else:
                states[card_id] = state
        return states

    def fsrs_card(self, card_id: str) -> CardDict | None:
        """One card's FSRS state (None: never reviewed, or damaged and reported)."""
        rows = self._read("SELECT fsrs_card FROM schedule WHERE card_id = ?", (card_id,))
        if not rows:
            return None
        state = read_state(rows[0][0])
        if state is None:
            self._damage(card_id, "schedule")
        return state

    def review_counts(self) -> dict[str, int]:
        """How many times each card has been reviewed, by card id (unreviewed cards absent)."""
        rows = self._read("SELECT card_id, reviews FROM review_totals WHERE reviews > 0")
        return {str(card_id): int(count) for card_id, count in rows}

    def answers_by_card(self) -> dict[str, tuple[int, int]]:
        """Each card's (attempts, correct answers), from the totals the triggers keep."""
        rows = self._read("SELECT card_id, attempts, correct, damaged FROM answer_totals")
        for card, _, _, damaged in rows:
            if damaged:
                self._damage(card, "history")
        return {str(card): (int(n), int(right)) for card, n, right, _ in rows if n}

    def reviews_by_card(self, card_id: str | None = None) -> dict[str, tuple[int, int]]:
        """Each card's (reviews, lapses: rated Again after its first review), from the totals.

        The first review is the earliest (the lowest rating first at one time),
        not the first row: reviews merged by ``quizzer sync`` arrive out of order.
        Its time is the first of the card's first day; two index steps per card.
        ``card_id``: that card's alone (``stats CARD``), without reading its reviews.
        """
        query = (
            "SELECT t.card_id, t.reviews, t.again, t.damaged, (SELECT min(rating)"
            " FROM reviews INDEXED BY reviews_by_card WHERE card_id = t.card_id AND at = ("
            "  SELECT d.first_at FROM review_days AS d INDEXED BY review_days_by_card"
            "  WHERE d.card_id = t.card_id ORDER BY d.day LIMIT 1)"
            f" AND {VALID_REVIEW_SQL}) FROM review_totals AS t"
        )
        if card_id is None:
            rows = self._read(query)
        else:
            rows = self._read(query + " WHERE t.card_id = ?", (card_id,))
        for card, _, _, damaged, _ in rows:
            if damaged:
                self._damage(card, "history")
        return {
            str(card): (int(n), int(again) - (first == 1)) for card, n, again, _, first in rows if n
        }

    def first_reviews_on(self, day: str) -> int:
        """How many cards had their first review on the UTC date ``day`` (``YYYY-MM-DD``)."""
        from quizzer.progress.calendar import first_reviews_on

        return self._wait(lambda: first_reviews_on(self, day))

    def study_days(self) -> set[str]:
        """The UTC dates (``YYYY-MM-DD``) on which anything was answered."""
        rows = self._read("SELECT day FROM answer_days WHERE attempts > 0")
        return {str(day) for (day,) in rows}

    def reviews(self, card_id: str | None = None) -> list[Review]:
        return list(self.each_review(card_id))

    def each_review(self, card_id: str | None = None) -> Iterator[Review]:
        """The reviews in the order they were saved, one at a time (a backup streams them).

        A damaged review is reported (once per card) and skipped.
        """
        query = (
            f"SELECT card_id, rating, review_log, at, session_id, {VALID_REVIEW_SQL} FROM reviews"
        )
        args: tuple[str, ...] = ()
        if card_id is not None:
            query += " WHERE card_id = ?"
            args = (card_id,)
        for row in self._rows(query + " ORDER BY id", args):
            log = read_review_log(row[2]) if row[5] else None
            at = stored_time(row[3]) if log is not None else None
            if log is None or at is None:
                self._damage(row[0], "history")
                continue
            yield Review(row[0], row[1], dict(log), at, row[4])

    def fingerprints(self, card_id: str) -> dict[str, tuple[str, str]]:
        rows = self._read(
            "SELECT blank, fingerprint, answer FROM answer_fingerprints WHERE card_id = ?",
            (card_id,),
        )
        return {str(blank): (str(fp), str(text)) for blank, fp, text in rows}

    def attempts(self, card_id: str | None = None) -> list[Attempt]:
        return list(self.each_attempt(card_id))

    def each_attempt(
        self,
        card_id: str | None = None,
        *,
        overridden_only: bool = False,
        rows: Sequence[int] | None = None,
    ) -> Iterator[Attempt]:
        """The attempts in the order they were saved, one at a time (a backup streams them).

        ``overridden_only``: just those counted right by ``/override``, filtered in
        SQLite (``quizzer overrides`` over 300,000 attempts: 1.8 s when Python
        filtered them, 0.3 s so). ``rows``: just the attempts of those row ids
        (from :meth:`attempt_times`). A damaged attempt is reported (once per
        card) and skipped.
        """
        query = (
            "SELECT card_id, blank, given, correct, try, hints, ms, at, overridden,"
            f" {VALID_ATTEMPT_SQL}, revealed FROM attempts"
        )
        conditions = ["overridden = 1"] if overridden_only else []
        args: tuple[object, ...] = ()
        if card_id is not None:
            conditions.append("card_id = ?")
            args = (card_id,)
        if rows is not None:
            # Row ids are integers from this store, never text from outside.
            conditions.append(f"id IN ({','.join(str(int(row)) for row in rows) or 'NULL'})")
        if conditions:
            query += " WHERE " + " AND ".join(conditions)
        for row in self._rows(query + " ORDER BY id", args):
            at = stored_time(row[7]) if row[9] else None
            if at is None:
                self._damage(row[0], "history")
                continue
            marks = bool(row[8]), bool(row[10])  # overridden, revealed
            yield Attempt(row[0], row[1], row[2], bool(row[3]), row[4], row[5], row[6], at, *marks)

    def attempt_times(self, card_id: str) -> list[tuple[int, str, bool]]:
        """Each attempt of ``card_id`` as (row id, stored time, whether the row is sound).

        ``stats CARD`` finds its last answers by these and reads only those
        rows into attempts (4,800 attempts a card in a heavy history cost 0.15 s
        to read whole). Sound is :data:`VALID_ATTEMPT_SQL`, as every read checks.
        """
        return [
            (int(row), str(at), bool(sound))
            for row, at, sound in self._read(
                f"SELECT id, at, {VALID_ATTEMPT_SQL} FROM attempts INDEXED BY attempts_by_card"
                " WHERE card_id = ?",
                (card_id,),
            )
        ]

    def session_count(self) -> int:
        return int(self._read("SELECT count(*) FROM sessions")[0][0])

    def totals(self) -> Totals:
        attempts, correct, cards = self._read(
            "SELECT coalesce(sum(attempts), 0), coalesce(sum(correct), 0),"
            " count(CASE WHEN attempts > 0 THEN 1 END) FROM answer_totals"
        )[0]
        sessions = self._read("SELECT count(*) FROM sessions")[0][0]
        return Totals(attempts=attempts, correct=correct, cards_seen=cards, sessions=sessions)

    def _read(self, query: str, args: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
        return list(self._rows(query, args))

    def _rows(self, query: str, args: tuple[object, ...] = ()) -> Iterator[tuple[Any, ...]]:
        try:
            cursor = self._wait(lambda: self.connection.execute(query, args))
            while rows := cursor.fetchmany(_FETCH_BATCH):
                yield from rows
        except sqlite3.Error as error:
            raise operational(self.path, error) from None


_FETCH_BATCH = 2000
