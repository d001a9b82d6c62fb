"""The ``quizzer`` command: a thin Typer layer over the core.

Commands parse options, call the core, hand the results to
:mod:`quizzer.ui`, and map failures to the exit codes of
:class:`quizzer.errors.ExitCode`. Each command group lives in its own module
and is merged into the one app here.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

# Typer bundles its own Click: its Context is the type these overrides receive.
from typer._click import Context as ClickContext
from typer._click.exceptions import ClickException, UsageError
from typer.core import TyperGroup

from quizzer.cli import (
    answers,
    audit,
    cards,
    drill,
    export,
    habits,
    importing,
    optimize,
    overrides,
    progress,
    sessions,
    sync,
)
from quizzer.cli.common import DbOption, DeckOption, screen_for, workspace_of
from quizzer.cli.terminal import end_like_ctrl_c_on_signals, ended_by_signal
from quizzer.errors import ExitCode, QuizzerError
from quizzer.files import protected, skipped_files_reported_to
from quizzer.version import __version__


class QuizzerGroup(TyperGroup):
    """Turns quizzer's errors into one line on stderr and an exit code.

    Doing it here rather than around ``app()`` means tests driving the app
    through ``CliRunner`` see exactly what a user sees.
    """

    def main(  # type: ignore[override]
        self,
        args: Any = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        """Click's main, except that a bad option is one line on stderr (contract item 12).

        Typer would draw Click's usage error as a box of several lines; it is
        reported here as ``quizzer: error: ...`` with where to look for help.
        """
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            returned = super().main(args, prog_name, complete_var, False, **extra)
        except ClickException as error:
            _report_usage_error(error)
            sys.exit(error.exit_code)
        except typer.Abort:
            sys.stderr.write("quizzer: error: aborted\n")
            sys.exit(1)  # what Click exits with
        # Not standalone, Click returns an Exit's code instead of leaving with it.
        sys.exit(returned if isinstance(returned, int) else 0)

    def _main_shell_completion(
        self, ctx_args: Any, prog_name: str, complete_var: str | None = None
    ) -> None:
        from quizzer.cli.completion import use_quizzer_completion

        use_quizzer_completion()
        super()._main_shell_completion(ctx_args, prog_name, complete_var)

    def invoke(self, ctx: ClickContext) -> Any:
        # No export may replace the progress database or the deck cache (issue 27).
        try:
            with (
                protected(lambda: _protected_files(ctx)),
                skipped_files_reported_to(lambda line: screen_for(ctx).warning(line)),
            ):
                return super().invoke(ctx)
        except QuizzerError as error:
            if _debug(ctx):
                raise
            screen_for(ctx).error(error.message)
            raise typer.Exit(int(error.exit_code)) from None
        except KeyboardInterrupt:
            signalled = ended_by_signal()
            if signalled is not None:
                raise typer.Exit(signalled) from None
            raise  # Typer turns Ctrl-C into 130
        except (typer.Exit, typer.Abort):
            raise  # Typer turns these into exit codes
        except BrokenPipeError:
            # The reader left (`quizzer show attention | head -1`): what it wanted
            # arrived, so exit 0 quietly, as `list` does, rather than Click's 1.
            _silence_stdout()
            raise typer.Exit(0) from None
        except OSError as error:
            # Files and the database turn their own failures into QuizzerErrors; what
            # is left is output that cannot be written (stdout on a full device), or
            # a path the operating system refuses (a name over 255 bytes, a folder
            # the user may not read): the request was bad, so one line and exit 2.
            if _debug(ctx):
                raise
            signalled = ended_by_signal()
            if signalled is not None:  # SIGHUP took the terminal away while writing
                _silence_stdout()
                raise typer.Exit(signalled) from None
            with contextlib.suppress(OSError):
                screen_for(ctx).error(_os_error_line(error))
            raise typer.Exit(int(ExitCode.USAGE)) from None
        except Exception as error:  # a bug: one line, the traceback only with --debug
            if _debug(ctx) or _is_click_exception(error):
                raise
            screen_for(ctx).error(
                f"internal error: {type(error).__name__}: {error} (run with --debug for details)"
            )
            raise typer.Exit(int(ExitCode.INTERNAL)) from None


def _protected_files(ctx: Any) -> list[Path]:
    from quizzer.cards.cache import CACHE_FILE, cache_folder
    from quizzer.cli.common import db_path_for

    return [db_path_for(ctx, None), cache_folder() / CACHE_FILE]


_OUTPUT_FAILURES = {errno.ENOSPC, errno.EIO, errno.EFBIG, errno.EDQUOT, errno.EBADF}


def _os_error_line(error: OSError) -> str:
    """The one line for an operating-system error: what failed, on which path."""
    reason = error.strerror or str(error)
    if error.errno in _OUTPUT_FAILURES and error.filename is None:
        return f"cannot write the output: {reason}"
    if error.filename is None:
        return reason
    name = os.fsdecode(error.filename)
    if len(name) > _SHOWN_PATH:  # a 5,000-character path is not worth a screenful
        name = name[: _SHOWN_PATH // 2] + "…" + name[-_SHOWN_PATH // 4 :]
    return f"{reason}: {name}"


#: Characters of a path shown in an error line.
_SHOWN_PATH = 120


def _report_usage_error(error: ClickException) -> None:
    """A bad option or argument: ``quizzer: error: MESSAGE (see 'quizzer CMD -h')``."""
    from quizzer.ui.console import visible

    message = " ".join(error.format_message().split())
    context = getattr(error, "ctx", None)
    command = context.command_path if context is not None else "quizzer"
    hint = f" (see '{command} -h')" if isinstance(error, UsageError) else ""
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.write(f"quizzer: error: {visible(message)}{hint}\n")
        sys.stderr.flush()


def _is_click_exception(error: Exception) -> bool:
    # Usage errors raised while parsing a subcommand's options are Click's to report.
    return any(cls.__name__ in ("ClickException", "Exit", "Abort") for cls in type(error).__mro__)


def _debug(ctx: ClickContext) -> bool:
    return workspace_of(ctx).debug or os.environ.get("QUIZZER_DEBUG") == "1"


app = typer.Typer(
    name="quizzer",
    cls=QuizzerGroup,
    help="Learn formulas and concepts by filling in blanks, judged symbolically.",
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    rich_markup_mode="rich",
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"quizzer {__version__}")
        raise typer.Exit()


@app.callback(invoke_without_command=True)
def configure(
    ctx: typer.Context,
    deck: DeckOption = None,
    db: DbOption = None,
    no_color: Annotated[
        bool, typer.Option("--no-color", help="Plain output without colour (as NO_COLOR=1).")
    ] = False,
    debug: Annotated[
        bool, typer.Option("--debug", help="Show the full traceback when something fails.")
    ] = False,
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Show the version."),
    ] = False,
) -> None:
    """Learn formulas and concepts by filling in blanks.

    Cards come from the bundled deck, QUIZZER_DECKS and --deck. Start with
    [bold]quizzer list[/bold], then [bold]quizzer show attention[/bold].
    With no command, print what is due, what is new, your streak and what to run next.
    """
    from quizzer.app.workspace import Workspace

    ctx.obj = Workspace.from_environment(
        decks=list(deck or []), db=db, no_color=no_color, debug=debug
    )
    if ctx.invoked_subcommand is None:
        show_status(ctx)


def show_status(ctx: typer.Context) -> None:
    """Bare ``quizzer``: the learner's standing over every known card, and the next command."""
    from quizzer.app import reports

    found = reports.status(workspace_of(ctx))
    screen_for(ctx).plan.status(found.status, found.now)


app.add_typer(cards.app)
app.add_typer(answers.app)
app.add_typer(audit.app)
app.add_typer(sessions.app)
app.add_typer(drill.app)
app.add_typer(overrides.app)
app.add_typer(progress.app)
app.add_typer(progress.progress_app)
app.add_typer(export.app)
app.add_typer(habits.app)
app.add_typer(importing.app)
app.add_typer(optimize.app)
app.add_typer(sync.app)


def main() -> None:
    """Console-script entry point."""
    from quizzer.ui.console import setup_streams

    _open_closed_streams()
    setup_streams()
    end_like_ctrl_c_on_signals()
    try:
        app(prog_name="quizzer")
    finally:
        _silence_unwritable_stdout()


def _open_closed_streams() -> None:
    """Give a stream closed by the caller (``quizzer quiz <&-``) the null device.

    Python leaves ``sys.stdin`` None then; as /dev/null it is simply an empty
    input, which every command already handles (a session ends cleanly).
    """
    for name, mode in (("stdin", "r"), ("stdout", "w"), ("stderr", "w")):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, mode, encoding="utf-8"))  # noqa: SIM115


def _silence_unwritable_stdout() -> None:
    # Python flushes stdout once more on exit; on a full device that would add a
    # second, raw error after quizzer's own line, and turn the exit status into 120.
    try:
        sys.stdout.flush()
    except OSError:
        _silence_stdout()


def _silence_stdout() -> None:
    """Point stdout at the null device, so nothing more fails to be written there."""
    with contextlib.suppress(OSError, ValueError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
