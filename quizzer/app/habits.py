"""The daily loop's use cases: setting cards aside (``suspend``) and the settings (``config``).

Which cards a session leaves out (suspended, buried) is decided where cards
are chosen, :func:`quizzer.app.choosing.without_set_aside`; this module
changes what is stored.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from quizzer.errors import ExitCode, QuizzerError

if TYPE_CHECKING:
    from quizzer.app.workspace import Workspace
    from quizzer.progress.parameters import SavedParameters
    from quizzer.progress.settings import Settings


def known_ids(workspace: Workspace, names: Sequence[str]) -> list[str]:
    """``names`` once each, in order, when every one is a known card id.

    Raises:
        QuizzerError: Some are not (exit 2), naming them all.
    """
    from quizzer.app.choosing import load

    known = {c.id for c in load(workspace).cards}
    unknown = [name for name in names if name not in known]
    if unknown:
        raise QuizzerError(f"unknown card: {', '.join(unknown)}", ExitCode.USAGE)
    return list(dict.fromkeys(names))


def set_suspended(workspace: Workspace, names: Sequence[str], suspended: bool) -> list[str]:
    """Suspend (or unsuspend) the cards named, in one transaction; returns their ids.

    A suspended card is left out of every quiz, review, drill and export that
    does not name it.
    """
    from quizzer.progress.flags import set_suspended as save

    ids = known_ids(workspace, names)
    with workspace.open_progress() as store:
        save(store, ids, suspended, now=workspace.clock())
    return ids


def settings(workspace: Workspace) -> Settings:
    """The learner's settings (the defaults when there is no progress database yet)."""
    from quizzer.progress.settings import read_settings

    with workspace.existing_progress() as store:
        return read_settings(store)


def change_setting(workspace: Workspace, name: str, text: str) -> Settings:
    """Check and save one setting; returns the settings as they now are.

    Raises:
        SettingError: An unknown name or a bad value, before any file is created.
    """
    from quizzer.progress.settings import parse_value, write_setting

    parse_value(name, text)  # refused before the progress database is created
    with workspace.open_progress() as store:
        return write_setting(store, name, text, now=workspace.clock())


def check_setting_name(name: str) -> None:
    """Refuse a name that is not a setting, with one line naming those there are."""
    from quizzer.progress.settings import NAMES, SYNC_DIR, parse_value

    if name not in NAMES and name != SYNC_DIR:
        parse_value(name, "")


def sync_dir(workspace: Workspace) -> str:
    """The folder study commands sync through (``""``: none), as ``config sync_dir`` saved it."""
    from quizzer.progress.settings import read_sync_dir

    with workspace.existing_progress() as store:
        return read_sync_dir(store)


def change_sync_dir(workspace: Workspace, text: str) -> str:
    """Save the sync folder (``""`` turns automatic sync off); returns it as saved.

    Raises:
        SettingError: not a folder's path, before any file is created.
    """
    from quizzer.progress.settings import parse_sync_dir, write_sync_dir

    if not parse_sync_dir(text):
        with workspace.existing_progress() as store:
            return "" if store is None else write_sync_dir(store, "")
    with workspace.open_progress() as store:
        return write_sync_dir(store, text)


@dataclass(frozen=True)
class ConfigShown:
    """What ``quizzer config [KEY [VALUE]]`` shows.

    Attributes:
        settings: Each setting shown, by name, as ``config --json`` prints it (one when a
            KEY was given).
        fitted: With no KEY: the FSRS parameters ``optimize`` saved (None: the defaults).
        all_settings: Whether every setting is shown (no KEY), so the parameters are too.
    """

    settings: dict[str, Any]
    fitted: SavedParameters | None = None
    all_settings: bool = True

    def to_dict(self) -> dict[str, Any]:
        return dict(self.settings)


def config(workspace: Workspace, key: str | None = None, value: str | None = None) -> ConfigShown:
    """Read every setting, read one (``key``), or change one (``key`` and ``value``).

    Raises:
        SettingError: An unknown key or a bad value (nothing is written).
    """
    from quizzer.app.optimizing import saved
    from quizzer.progress.settings import SYNC_DIR

    if key is not None:
        check_setting_name(key)
    if key == SYNC_DIR:
        folder = change_sync_dir(workspace, value) if value is not None else sync_dir(workspace)
        return ConfigShown({SYNC_DIR: folder}, all_settings=False)
    if key is not None and value is not None:
        found = change_setting(workspace, key, value)
    else:
        found = settings(workspace)
    shown = found.to_dict()
    if key is not None:
        return ConfigShown({key: shown[key]}, all_settings=False)
    if folder := sync_dir(workspace):
        shown[SYNC_DIR] = folder  # shown once chosen: unset, it is no setting of the learner's
    return ConfigShown(shown, saved(workspace))
