"""Finding card files: where cards come from and which files under a source are cards.

Where cards come from (DESIGN.md, contract item 2): the bundled ``content/``
folder, then the user deck (the folder ``quizzer new`` writes in, when it
exists), then each path in ``QUIZZER_DECKS`` (joined by ``os.pathsep``), then
each ``--deck PATH``. A path is a card file or a folder searched recursively
for ``*.yaml`` / ``*.yml``. Reading the files is :mod:`quizzer.cards.deck`'s.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from stat import S_ISDIR, S_ISREG

from quizzer.errors import DeckNotFound
from quizzer.files import kind_of, reason, report_skipped

CARD_SUFFIXES = (".yaml", ".yml")
DECKS_ENV = "QUIZZER_DECKS"
#: Overrides where the user deck is (a folder), as QUIZZER_DB does for progress.
USER_DECK_ENV = "QUIZZER_USER_DECK"
#: The user deck's folder name in the user data folder; also its name in ``quizzer list``.
USER_DECK_NAME = "my-cards"
#: Where ``quizzer schema --write`` puts the schema, and where ``new`` looks for it.
SCHEMA_FILE_NAME = "card.schema.json"


def bundled_content_dir() -> Path:
    """The deck shipped with quizzer.

    In a wheel it is ``quizzer/content``; in a source checkout (or an editable
    install) it is ``content/`` at the top of the repository.
    """
    package = Path(__file__).resolve().parent.parent
    installed = package / "content"
    if installed.is_dir():
        return installed
    return package.parent / "content"


def schema_file() -> Path:
    """The card JSON Schema shipped with quizzer (for editors)."""
    package = package_dir()
    installed = package / SCHEMA_FILE_NAME
    return installed if installed.is_file() else package.parent / "schema" / "card.schema.json"


def package_dir() -> Path:
    """The installed ``quizzer`` package: never a place to write cards into."""
    return Path(__file__).resolve().parent.parent


def source_of(path: Path) -> str:
    """Where an author edits the card in ``path``: the file itself, or for a card installed
    with the package, its file in quizzer's source tree (the copy in site-packages is
    replaced by the next install, so editing it loses the change).
    """
    resolved = path.resolve()
    package = package_dir()
    if package not in resolved.parents:
        return str(path)
    relative = resolved.relative_to(package).as_posix()  # content/ml/attention.yaml
    return f"{relative} in quizzer's source (bundled; installed copy {path})"


def user_deck_dir(env: Mapping[str, str] | None = None) -> Path:
    """The author's own deck: ``QUIZZER_USER_DECK``, else ``my-cards`` in the user data folder.

    It sits beside the progress database (platformdirs' user data folder), so
    cards written with ``quizzer new`` survive upgrades and reinstalls of quizzer.
    """
    env = os.environ if env is None else env
    if env.get(USER_DECK_ENV):
        return Path(env[USER_DECK_ENV]).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("quizzer", appauthor=False)) / USER_DECK_NAME


def deck_sources(
    extra: Sequence[str | os.PathLike[str]] = (),
    env: Mapping[str, str] | None = None,
    *,
    bundled: bool = True,
    user: bool = True,
) -> list[Path]:
    """Every place cards come from, in order: bundled, the user deck, ``QUIZZER_DECKS``, ``extra``.

    The user deck is a source only once it exists: reading cards never creates it.
    """
    env = os.environ if env is None else env
    sources = [bundled_content_dir()] if bundled else []
    if user:
        mine = user_deck_dir(env)
        if mine.is_dir():
            sources.append(mine)
    from_env = [part for part in env.get(DECKS_ENV, "").split(os.pathsep) if part.strip()]
    for raw in [*from_env, *extra]:
        path = Path(raw).expanduser()
        if not path.exists():
            origin = DECKS_ENV if raw in from_env else "--deck"
            raise DeckNotFound(f"deck not found: {raw} (from {origin})")
        sources.append(path)
    return sources


def card_files(source: Path) -> list[tuple[Path, str]]:
    """Card files under ``source`` with the deck name each belongs to.

    The deck name is the folder a card sits in, relative to ``source``
    (``content/ml/attention.yaml`` is in deck ``ml``). Only regular, readable
    files are listed: a FIFO would block the reader forever, so FIFOs,
    devices, sockets, symlink loops and unreadable files or folders are
    skipped, each reported through :func:`quizzer.files.report_skipped`.
    Hidden entries and symlinked folders are not followed.

    Raises:
        DeckNotFound: ``source`` itself is neither a regular file nor a folder
            (it was named on the command line or in QUIZZER_DECKS: say so).
    """
    try:
        mode = os.stat(source).st_mode
    except OSError as error:
        raise DeckNotFound(f"cannot read {source}: {reason(error)}") from None
    if S_ISREG(mode):
        return [(source, source.parent.name)]
    if not S_ISDIR(mode):
        raise DeckNotFound(f"{source} is {kind_of(mode)}, not a card file or folder")
    found: list[tuple[Path, str]] = []
    root = str(source)
    # scandir tells a regular file from its directory entry, without a stat per file;
    # it is what made os.walk several times faster than Path.rglob on big decks.
    pending = [root]
    while pending:
        folder = pending.pop()
        relative = os.path.relpath(folder, root)
        deck = source.name if relative == "." else Path(relative).as_posix()
        entries = _entries_of(folder)
        found.extend((Path(entry.path), deck) for entry in entries if _is_card_file(entry))
        pending.extend(entry.path for entry in reversed(entries) if _is_folder(entry))
    found.sort(key=lambda item: item[0].as_posix())
    return found


def _entries_of(folder: str) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(folder) as listing:
            return sorted(
                (entry for entry in listing if not entry.name.startswith(".")),
                key=lambda entry: entry.name,
            )
    except OSError as error:
        report_skipped(folder, f"cannot read the folder ({reason(error)})")
        return []


def _is_folder(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def _is_card_file(entry: os.DirEntry[str]) -> bool:
    """Whether a folder entry is a card file to read; a skipped one is reported."""
    if not entry.name.endswith(CARD_SUFFIXES) or _is_folder(entry):
        return False
    try:
        if not entry.is_file():
            report_skipped(entry.path, f"it is {kind_of(entry.stat().st_mode)}, not a card file")
            return False
    except OSError as error:
        loop = error.errno == errno.ELOOP
        report_skipped(entry.path, "a symlink loop" if loop else reason(error))
        return False
    if not os.access(entry.path, os.R_OK):
        report_skipped(entry.path, "not readable (permission denied)")
        return False
    return True


def resolved_files(source: Path) -> set[str]:
    """The card files under ``source`` as :func:`load_deck` names them once resolved."""
    root, base = source.resolve(), str(source)
    if not root.is_dir():
        return {str(root)}
    return {_under(root, base, path) for path, _ in card_files(source)}


def _under(root: Path, base: str, path: Path) -> str:
    """``path``, found by walking ``base``, as a path under ``root`` (``base`` resolved)."""
    text = str(path)
    if text.startswith(base + os.sep):  # string slicing: 10,000 relpath calls took 0.1 s
        return str(root) + text[len(base) :]
    return os.path.join(str(root), os.path.relpath(text, base))


def looks_like_path(name: str) -> bool:
    return name.endswith(CARD_SUFFIXES) or os.sep in name or "/" in name
