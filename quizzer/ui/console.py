"""The two output streams every screen writes to, and reading a line typed at a prompt.

:class:`Output` wraps one console for standard output and one for standard
error, so tests can render into a string and the command line can honour
``NO_COLOR`` / ``--no-color``. The views in this package (card, session,
drill, ...) draw on it; :class:`quizzer.ui.screen.Screen` is one that holds them all.
"""

from __future__ import annotations

import codecs
import contextlib
import functools
import json
import os
import re
import sys
from collections.abc import Iterable
from types import ModuleType
from typing import IO

from rich.console import Console
from rich.segment import Segment
from rich.text import Text

_ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")

#: Characters that would act on the terminal rather than show: C0 controls but
#: newline and tab, DEL, C1 controls, and the bidirectional overrides and
#: isolates that reorder what follows them (a card could hide text with them).
_INVISIBLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def visible(text: str) -> str:
    """``text`` with every control or escape character written out (ESC as ``\\x1b``).

    Text from cards and from the command line may hold escape sequences; written
    raw they would recolour, retitle or clear the learner's terminal.
    """
    if not _INVISIBLE.search(text):
        return text
    return _INVISIBLE.sub(_spelled, text)


def _spelled(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


#: A run of characters without a space longer than this is cut in an error line.
_LONGEST_WORD = 120
_LONG_WORD = re.compile(r"\S{" + str(_LONGEST_WORD + 1) + ",}")


def _one_line(message: str) -> str:
    """``message`` with controls visible (Rich would drop a bell) and long names cut.

    A 5,000-character id or path named in an error is shown by its start and end.
    """
    return _LONG_WORD.sub(
        lambda m: m.group()[: _LONGEST_WORD // 2] + "…" + m.group()[-_LONGEST_WORD // 4 :],
        visible(message),
    )


def setup_streams() -> None:
    """Make the standard streams unable to fail on an encoding.

    Under ``LC_ALL=C``, ``PYTHONIOENCODING=ascii`` or ``latin-1`` a formula's
    ``√`` or a Greek letter cannot be encoded: it is written as ``?`` rather
    than ending the command. Input that is not valid UTF-8 (a stray byte, a
    CESU surrogate, an overlong form) is read with U+FFFD in its place and
    judged as written, instead of failing when the attempt is saved.
    """
    for stream, errors in ((sys.stdout, "replace"), (sys.stderr, "backslashreplace")):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):
                reconfigure(errors=errors)
    reconfigure = getattr(sys.stdin, "reconfigure", None)
    if reconfigure is not None:
        with contextlib.suppress(ValueError, OSError):
            encoding = sys.stdin.encoding or "utf-8"
            # In the C locale Python reads ASCII or UTF-8 with surrogateescape: lone
            # surrogates that no database or screen accepts. Read UTF-8 then.
            if codecs.lookup(encoding).name in ("ascii", "utf-8"):
                encoding = "utf-8"
            reconfigure(encoding=encoding, errors="replace")


def _line_editing(console: Console) -> bool:
    """Whether input() will edit with readline: stdin and stdout both the terminal."""
    if console.file is not sys.stdout or not (sys.stdin.isatty() and sys.stdout.isatty()):
        return False
    return _readline_ready()


@functools.cache
def _readline_ready() -> bool:
    """Load and set up readline, once per process."""
    try:
        import readline
    except ImportError:  # Windows, or Python built without it
        return False
    # Tab would complete file names by default; answers never name files.
    readline.set_completer(lambda text, state: None)
    _leave_signals_to_python(readline)
    return True


def _leave_signals_to_python(readline: ModuleType) -> None:
    """Stop GNU readline catching SIGINT itself while it handles a key.

    With its default ``rl_catch_signals = 1``, a Ctrl-C that lands while
    readline is processing a keystroke is held by readline until the next
    key, and the prompt seems to ignore it (seen in a stress test, with
    readline's handlers still installed in the stuck process). Python's
    readline module offers no switch for this, so set the C variable; where
    that is impossible (libedit, no symbol), keep the default.
    """
    try:
        import ctypes

        library = ctypes.CDLL(readline.__file__)
        ctypes.c_int.in_dll(library, "rl_catch_signals").value = 0
    except (OSError, ValueError, AttributeError, TypeError):
        pass


#: What leads the key banner; its other lines are indented to match.
_KEYS_LEAD = "Keys: "


def key_lines(text: str, width: int) -> list[str]:
    """``Keys: ? hint · ! reveal · ...`` in lines of at most ``width`` columns (issue 24).

    The items of ``text`` (joined by `` · ``) are packed greedily; a line breaks
    only between two items, so no key is cut from what it does. An item wider
    than the screen has a line of its own (the terminal wraps it).
    """
    from rich.cells import cell_len

    indent = " " * len(_KEYS_LEAD)
    lines: list[str] = []
    line = ""
    for item in text.split(" · "):
        joined = f"{line} · {item}" if line else item
        if line and cell_len(((lines and indent) or _KEYS_LEAD) + joined) > width:
            lines.append(line)
            joined = item
        line = joined
    lines.append(line)
    return [(indent if number else _KEYS_LEAD) + line for number, line in enumerate(lines)]


class _Console(Console):
    """Rich's console, except that a reader who left early is no failure.

    Every piece of text it writes shows control characters visibly (see
    :func:`visible`); the styling Rich adds itself is left alone.
    """

    def _render_buffer(self, buffer: Iterable[Segment]) -> str:
        return super()._render_buffer(
            segment if segment.control else Segment(visible(segment.text), segment.style)
            for segment in buffer
        )

    def on_broken_pipe(self) -> None:
        # `quizzer show attention | head -1`: Rich points stdout at the null device
        # and exits 1; the reader got what it asked for, so exit 0, as `list` does.
        try:
            super().on_broken_pipe()
        except SystemExit:
            raise SystemExit(0) from None


class Output:
    """The two output streams, styled or plain, and the prompt that reads a line."""

    def __init__(
        self,
        *,
        no_color: bool = False,
        file: IO[str] | None = None,
        error_file: IO[str] | None = None,
        width: int | None = None,
    ) -> None:
        # no_color=True keeps bold/underline but drops colour, as NO_COLOR asks;
        # Rich also reads NO_COLOR from the environment on its own.
        # markup=False: card text such as "E[y²]" or "[bold]" is shown as written,
        # never read as Rich markup (which silently swallowed it). Styling is
        # always given as Text and Style objects here.
        self.out = _Console(
            file=file, no_color=no_color or None, width=width, highlight=False, markup=False
        )
        self.err = _Console(
            file=error_file,
            stderr=error_file is None,
            no_color=no_color or None,
            width=width,
            highlight=False,
            markup=False,
        )

    def json(self, data: object) -> None:
        """Machine-readable output: plain JSON, no styling, no wrapping."""
        stream = self.out.file if self.out.file is not None else sys.stdout
        if isinstance(data, list) and data:
            # One item a line: json.dumps is C only without indent (10,000 cards: 0.07 -> 0.03 s).
            items = ",\n  ".join(json.dumps(item, ensure_ascii=False) for item in data)
            stream.write(f"[\n  {items}\n]\n")
        else:
            stream.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
        stream.flush()

    def paged(self, enabled: bool = True) -> contextlib.AbstractContextManager[None]:
        """A block whose output goes through a pager when taller than the terminal."""
        from quizzer.ui.pager import paged

        return paged(self.out, enabled)

    def line(self, text: str) -> None:
        """One unstyled line on standard output (never wrapped)."""
        self.out.print(Text(text), soft_wrap=True)

    def error(self, message: str) -> None:
        """The one-line error for a failed command."""
        self.err.print(
            Text.assemble(("quizzer: error: ", "bold red"), _one_line(message)), soft_wrap=True
        )

    def warning(self, message: str) -> None:
        """A one-line warning on standard error."""
        self.err.print(
            Text.assemble(("quizzer: warning: ", "yellow"), _one_line(message)), soft_wrap=True
        )

    def note(self, message: str) -> None:
        """A dim line on standard error: where things are, what to do next."""
        self.note_styled(message, "dim")

    def note_styled(self, message: str, style: str) -> None:
        """A line on standard error in ``style``."""
        self.err.print(Text(message, style=style), soft_wrap=True)

    def keys_help(self, text: str) -> None:
        """The dim lines that list a session's keys, broken between keys, never inside one."""
        for line in key_lines(text, self.out.width):
            self.out.print(Text(line, style="dim"), soft_wrap=True)

    def ask_key(self, prompt: str, keys: str) -> str:
        """Read one key in a terminal: one of ``keys`` acts at once, without Enter.

        Enter gives ``""``; any other key starts a line as :meth:`ask` reads it
        (so ``/quit`` or ``/suspend`` still work). EOFError at Ctrl-D; Ctrl-C
        raises KeyboardInterrupt as usual (the terminal keeps its signals).
        """
        import termios
        import tty

        if not _line_editing(self.out):
            return self.ask(prompt)
        fd = sys.stdin.fileno()
        saved = termios.tcgetattr(fd)
        try:
            # Key by key before the prompt shows: a key typed the instant it appears
            # (Ctrl-D included) must not meet the line discipline's own handling.
            tty.setcbreak(fd)
            self.out.print(Text(prompt, style="bold cyan"), end="")
            self.out.file.flush()
            key = os.read(fd, 1).decode("utf-8", "replace")
        finally:
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        if key in ("", "\x04"):  # nothing left to read, or Ctrl-D
            raise EOFError
        if key in ("\r", "\n"):
            self.out.print()
            return ""
        if key in keys:
            self.out.print(key)
            return key
        # Not a key of its own: the line it starts, typed on.
        self.out.print(key, end="")
        self.out.file.flush()
        return key + input()

    def ask(self, prompt: str) -> str:
        """Read one line typed in a terminal. EOFError at Ctrl-D.

        With both ends a terminal, input goes through readline: arrow keys
        edit the line and Up recalls the previous try (in this session only;
        nothing is written to a history file).
        """
        styled = Text(prompt, style="bold cyan")
        if not _line_editing(self.out):
            return self.out.input(styled)
        with self.out.capture() as captured:
            self.out.print(styled, end="")
        # Readline must be handed the prompt, or it redraws over it (Home, Up);
        # \x01 ... \x02 tell it which bytes are escape codes that take no room.
        return input(_ANSI_ESCAPE.sub("\x01\\g<0>\x02", captured.get()))
