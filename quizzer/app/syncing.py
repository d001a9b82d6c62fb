"""Syncing progress through a shared folder (``quizzer sync``): the use case.

The folder is any the learner shares between machines (Syncthing, Dropbox,
a git working tree); :mod:`quizzer.progress.sync` does the merging. With
``git``, the folder is committed, rebased on its remote and pushed after
the merge, and git's own message is the error when a step fails.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

from quizzer.errors import ExitCode, QuizzerError

if TYPE_CHECKING:
    from quizzer.app.workspace import Workspace
    from quizzer.progress.sync import SyncResult

#: How long one git command may take (a push over a slow link) before sync gives up.
GIT_TIMEOUT_SECONDS = 60


def sync(workspace: Workspace, folder: Path, *, git: bool = False) -> SyncResult:
    """Send this device's new history to ``folder``, merge every other device's.

    Raises:
        QuizzerError: the folder is unusable, or (``git``) a git step failed.
    """
    from quizzer.progress.sync import sync as sync_folder

    if git:
        _git_pull(folder)
    with workspace.open_progress() as store:
        result = sync_folder(store, folder, now=workspace.clock())
    if git:
        _git_push(folder, result.device)
    return result


def _git(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    try:
        done = subprocess.run(
            ["git", "-C", str(folder), *args],
            capture_output=True,
            text=True,
            timeout=GIT_TIMEOUT_SECONDS,
            check=False,
        )
    except FileNotFoundError:
        raise QuizzerError("sync --git needs git, and it is not installed") from None
    except subprocess.TimeoutExpired:
        raise QuizzerError(
            f"git {args[0]} took over {GIT_TIMEOUT_SECONDS} s in {folder}; nothing was pushed",
            ExitCode.NOT_OK,
        ) from None
    if done.returncode != 0:
        said = (done.stderr or done.stdout).strip().splitlines()
        raise QuizzerError(
            f"git {args[0]} failed in {folder}: " + (" / ".join(said[-3:]) or "no message"),
            ExitCode.NOT_OK,
        )
    return done


def _succeeds(folder: Path, *args: str) -> bool:
    done = subprocess.run(["git", "-C", str(folder), *args], capture_output=True, check=False)
    return done.returncode == 0


def _has_upstream(folder: Path) -> bool:
    """Whether the branch pulls from a remote, once that remote has the branch.

    A clone of an empty repository tracks nothing until a first push; when
    another device has pushed since, its branch is fetched and tracked.
    """
    if _succeeds(folder, "rev-parse", "--verify", "-q", "@{upstream}"):
        return True
    remotes = _git(folder, "remote").stdout.split()
    if not remotes:
        return False
    branch = _git(folder, "symbolic-ref", "--short", "HEAD").stdout.strip()
    _git(folder, "fetch", "--quiet", remotes[0])
    if not _succeeds(folder, "rev-parse", "--verify", "-q", f"{remotes[0]}/{branch}"):
        return False
    _git(folder, "config", f"branch.{branch}.remote", remotes[0])
    _git(folder, "config", f"branch.{branch}.merge", f"refs/heads/{branch}")
    return True


def _git_pull(folder: Path) -> None:
    """Bring the other devices' files in first (each device commits only its own file)."""
    from quizzer.progress.sync import check_folder

    check_folder(folder)
    _git(folder, "rev-parse", "--is-inside-work-tree")
    _commit(folder, "")  # a sync without --git left this device's file changed
    if _has_upstream(folder):
        _git(folder, "pull", "--rebase", "--quiet")


def _commit(folder: Path, device: str) -> None:
    """Commit the sync files that changed, if any did."""
    from quizzer.progress.sync_files import SUFFIX

    if not any(folder.glob(f"*{SUFFIX}")):
        return  # nothing yet; git refuses a pattern that matches no file
    _git(folder, "add", "--all", "--", f"*{SUFFIX}")
    if not _succeeds(folder, "diff", "--cached", "--quiet"):
        who = f" from device {device}" if device else ""
        _git(folder, "commit", "--quiet", "-m", f"quizzer sync{who}")


def _git_push(folder: Path, device: str) -> None:
    _commit(folder, device)
    if _has_upstream(folder):
        # Another device may have pushed while this one merged: rebase once more, then push.
        _git(folder, "pull", "--rebase", "--quiet")
        _git(folder, "push", "--quiet")
    elif _git(folder, "remote").stdout.strip():
        # A clone of an empty repository: the first push sets where later pulls come from.
        remote = _git(folder, "remote").stdout.split()[0]
        _git(folder, "push", "--quiet", "--set-upstream", remote, "HEAD")


#: How long a study command waits for its sync at start and at end before going on without it.
AUTO_SYNC_SECONDS = 10.0  # a child quizzer starts in 1-2 s; a loaded machine needs the margin
#: A folder for automatic sync that wins over ``quizzer config sync_dir`` (one shell, a test).
SYNC_DIR_ENV = "QUIZZER_SYNC_DIR"


def configured_sync_dir(workspace: Workspace) -> Path | None:
    """The folder every study command syncs through, if the learner chose one.

    QUIZZER_SYNC_DIR when set and not empty, else ``quizzer config sync_dir``.
    """
    text = workspace.environ.get(SYNC_DIR_ENV, "").strip()
    if not text:
        from quizzer.app.habits import sync_dir

        try:
            text = sync_dir(workspace)
        except QuizzerError:
            return None  # a progress database that cannot be read: the session says so
    return Path(text).expanduser() if text else None


def _missing_folder(folder: Path) -> str | None:
    """Why the folder is plainly not there, said at once (an unplugged drive is common).

    Asked in a thread given a second: a folder on a network drive that does not answer
    is left to the child's time limit rather than blocking here.
    """
    import threading

    found: list[bool] = []
    probe = threading.Thread(target=lambda: found.append(folder.is_dir()), daemon=True)
    probe.start()
    probe.join(1.0)
    if found == [False]:
        return f"sync folder not found: {folder}"
    return None


def auto_sync(workspace: Workspace, *, limit: float = AUTO_SYNC_SECONDS) -> str | None:
    """Sync with the configured folder, giving up after ``limit`` seconds; never raises.

    The sync runs as a child ``quizzer sync`` so that one stuck on a folder
    that does not answer (a network drive gone) is killed at the limit: a
    sync killed at any moment loses and doubles nothing, and the session
    goes on with what it has.

    Returns:
        None when it synced (or no folder is configured), else one line saying why not.
    """
    import os
    import sys

    folder = configured_sync_dir(workspace)
    if folder is None:
        return None
    missing = _missing_folder(folder)
    if missing:
        return f"sync skipped: {missing}"
    command = [sys.executable, "-m", "quizzer", "--db", str(workspace.db_path)]
    command += ["sync", str(folder), "--json"]
    try:
        done = subprocess.run(
            command,
            capture_output=True,
            text=True,
            timeout=limit,
            env={**os.environ, **workspace.environ},
            stdin=subprocess.DEVNULL,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return f"sync: {folder} did not answer within {limit:g} s; studying without it"
    except OSError as error:
        return f"sync: cannot start it ({error.strerror or error}); studying without it"
    if done.returncode != 0:
        said = [line for line in done.stderr.splitlines() if line.strip()]
        why = said[-1].removeprefix("quizzer: ").removeprefix("error: ") if said else "failed"
        return f"sync skipped: {why}"
    return None
