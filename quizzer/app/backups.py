"""``quizzer progress export | import | reset``: the learner's record as a whole.

The backup format and the all-or-nothing merge are :mod:`quizzer.progress.backup`
and :mod:`quizzer.progress.restore`; this module opens the database the way
each needs (never creating one to export or reset).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from quizzer.errors import QuizzerError

if TYPE_CHECKING:
    from quizzer.app.workspace import Workspace
    from quizzer.progress.backup import Exported
    from quizzer.progress.staging import Merged


def export_progress(workspace: Workspace, file: Path) -> Exported:
    """Write every answer, review and setting to ``file`` (replaced atomically).

    Raises:
        QuizzerError: There is no progress database to export.
    """
    from quizzer.progress.backup import write_backup

    with workspace.existing_progress() as store:
        if store is None:
            raise QuizzerError(f"no progress to export (no database at {workspace.db_path})")
        return write_backup(store, file)


def import_progress(workspace: Workspace, file: Path) -> Merged:
    """Merge the backup ``file`` into the progress database, all of it or nothing."""
    from quizzer.files import open_regular
    from quizzer.progress.restore import import_backup

    open_regular(file).close()  # a missing or special file is refused before any database work
    with workspace.open_progress() as store:
        return import_backup(store, file, workspace.clock())


def reset_progress(workspace: Workspace, card: str | None) -> int | None:
    """Forget the progress of ``card`` (None: of everything); the answers removed.

    None when there is no progress database (nothing is created).
    """
    with workspace.existing_progress() as store:
        return None if store is None else store.reset(card)
