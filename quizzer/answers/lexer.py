"""The lexer: an answer's text to tokens, LaTeX commands and Unicode read on the way.

A name is read whole (``\\hat{m}_{t}``, ``β₁``, ``d_{\\text{model}}``); LaTeX
commands become the operators and names they mean, and a command outside the
subset answers may use is an error with its column, never skipped.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from quizzer.answers import functions
from quizzer.answers.limits import MAX_EXPONENT, MAX_LITERAL_DIGITS
from quizzer.answers.reading import AnswerError, TooLarge, did_you_mean
from quizzer.names import (
    ACCENT_COMMANDS,
    GREEK,
    GREEK_NAMES,
    SUBSCRIPTS,
    VARIANT_LETTERS,
)


class UnknownCommand(AnswerError):
    """A LaTeX command outside the subset answers may use."""

    def __init__(self, command: str, column: int) -> None:
        self.suggestion = did_you_mean(command, LATEX_COMMANDS)
        hint = f"; did you mean '\\{self.suggestion}'?" if self.suggestion else ""
        super().__init__(f"unknown LaTeX command '\\{command}' at column {column}{hint}", column)
        self.command = command


#: Functions an answer may call, with how many arguments each takes, and the
#: other names they go by: read from the one registry of answer functions.
FUNCTIONS: dict[str, tuple[int, int]] = functions.arities()
FUNCTION_ALIASES = functions.spellings()


# -- lexing ---------------------------------------------------------------------


@dataclass(frozen=True)
class Token:
    kind: str  # num, name, op, sup, end
    text: str
    column: int  # 1-based column in the original answer


_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_RAISED_LETTERS = "ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻ"
_RAISED = str.maketrans(_RAISED_LETTERS, "abcdefghijklmnoprstuvwxyz")
_UNICODE_OPS = {
    "·": "*", "×": "*", "⋅": "*", "∙": "*", "∗": "*", "@": "*",
    "−": "-", "–": "-", "÷": "/", "√": "sqrt", "∛": "cbrt", "ᵀ": "'", "∣": "|", "‖": "‖",
    "¬": "¬", "∞": "∞", "│": "|", "⌊": "⌊", "⌋": "⌋", "⌈": "⌈", "⌉": "⌉",
}  # fmt: skip
_VULGAR_FRACTIONS = {
    "½": "1/2", "⅓": "1/3", "⅔": "2/3", "¼": "1/4", "¾": "3/4", "⅕": "1/5", "⅖": "2/5",
    "⅗": "3/5", "⅘": "4/5", "⅙": "1/6", "⅚": "5/6", "⅛": "1/8", "⅜": "3/8", "⅝": "5/8",
    "⅞": "7/8",
}  # fmt: skip
_LATEX_OPS = {
    "cdot": "*", "times": "*", "div": "/", "sqrt": "sqrt", "frac": "frac", "dfrac": "frac",
    "tfrac": "frac", "cfrac": "frac", "top": "T", "intercal": "T", "mid": "|",
    "vert": "|", "lvert": "⎸", "rvert": "⎹", "lbrace": "{", "rbrace": "}", "{": "{", "}": "}",
    "|": "‖", "Vert": "‖", "lVert": "‖", "rVert": "‖", "neg": "¬", "lnot": "¬", "ast": "*",
    "infty": "∞", "prime": "'", "choose": "choose", "lfloor": "⌊", "rfloor": "⌋",
    "lceil": "⌈", "rceil": "⌉", "sum": "\\sum", "prod": "\\prod",
}  # fmt: skip
#: Operators that are names to the parser, which reads their arguments itself.
_NAME_OPERATORS = frozenset({"sqrt", "frac", "T", "cbrt", "sum", "prod"})
#: What marks a transpose inside a power: x^{\top}, x^{\mathrm T}, x^{\prime}.
TRANSPOSE_MARKS = frozenset({"T", "\\top", "\\intercal"})
#: Functions as LaTeX commands: LaTeX's own (\log, \tanh) and, since learners type
#: them, every other function name too (\sech, \sigmoid).
_LATEX_FUNCTIONS = {
    *functions.latex_commands(),
    *(name for name in [*FUNCTIONS, *FUNCTION_ALIASES] if name.isascii() and name.isalpha()),
}
_LATEX_SKIP = {
    "left", "right", "big", "Big", "bigg", "Bigg", "bigl", "bigr", "Bigl", "Bigr",
    "biggl", "biggr", ",", ";", ":", "!", " ", "quad", "qquad", "displaystyle",
}  # fmt: skip
_LATEX_NAME_WRAPPERS = (
    "operatorname", "mathrm", "text", "mathit", "mathbf", "boldsymbol", "mathsf", "textrm",
    "textit", "rm", "bm",
)  # fmt: skip
#: Every LaTeX command an answer may use, for "did you mean" after a typo.
LATEX_COMMANDS = frozenset(
    {*_LATEX_OPS, *_LATEX_FUNCTIONS, *_LATEX_SKIP, *_LATEX_NAME_WRAPPERS, *GREEK_NAMES,
     *VARIANT_LETTERS, *ACCENT_COMMANDS, "pi"} - {",", ";", ":", "!", " "}
)  # fmt: skip
_NUMBER = re.compile(r"(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
_LETTERS = re.compile(r"[A-Za-z][A-Za-z0-9]*")
_ALNUM = re.compile(r"[A-Za-z0-9]+")
_GREEK_TAIL = re.compile(r"\d+(?:hat|bar|tilde)?(?![A-Za-z])|(?:hat|bar|tilde)(?![A-Za-z])")
_LATEX_COMMAND = re.compile(r"\\([A-Za-z]+|.)")
_GROUP = re.compile(r"\s*\{([^{}]*)\}")
_COMBINING = re.compile(r"[\u0300-\u036f]+")
_SINGLE_OPS = set("+-*/^(),'![]{}|%")
#: An accent's or wrapper's one-letter argument without braces: \hat m, \bar\alpha.
_BARE_ARGUMENT = re.compile(r"\s*(\\[A-Za-z]+|[A-Za-z])")
#: A subscript that belongs to no name: the 2 of ‖w‖₂, the + of [x]_+.
_LOOSE_SUBSCRIPT = re.compile(r"_(?:\{\s*([^{}]*?)\s*\}|([A-Za-z0-9+]))")


def _base_letter(char: str) -> str:
    """The letter under a precomposed accent: ᾱ is α, ȳ is y."""
    return unicodedata.normalize("NFD", char)[0] if not char.isascii() else char


class _Lexer:
    """Turns an answer into tokens. A name is read whole: ``\\hat{m}_{t}``, ``β₁``."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0
        self.tokens: list[Token] = []

    def error(self, message: str, column: int) -> AnswerError:
        return AnswerError(f"{message} at column {column}", column)

    def run(self) -> list[Token]:
        text = self.text
        while self.i < len(text):
            char = text[self.i]
            column = self.i + 1
            if char.isspace():
                self.i += 1
            elif match := _NUMBER.match(text, self.i):
                self.number(match, column)
            elif self.name_start():
                self.tokens.append(Token("name", self.name(), column))
            elif text.startswith("**", self.i):
                self.tokens.append(Token("op", "^", column))
                self.i += 2
            elif text.startswith("||", self.i):
                self.tokens.append(Token("op", "‖", column))  # ||w|| is ‖w‖
                self.i += 2
            elif text.startswith("//", self.i):
                self.tokens.append(Token("op", "//", column))  # numpy's floor division
                self.i += 2
            elif re.match(r"\.T(?![A-Za-z0-9_])", text[self.i : self.i + 3]):
                self.tokens.append(Token("op", "'", column))  # numpy's X.T
                self.i += 2
            elif char == "_" and (loose := _LOOSE_SUBSCRIPT.match(text, self.i)):
                self.tokens.append(Token("sub", loose.group(1) or loose.group(2) or "", column))
                self.i = loose.end()
            elif char in SUBSCRIPTS and self.tokens:
                self.tokens.append(Token("sub", text[self.i].translate(_SUBSCRIPT_DIGITS), column))
                self.i += 1
            elif char in _SINGLE_OPS:
                self.tokens.append(Token("op", char, column))
                self.i += 1
            elif char in _VULGAR_FRACTIONS:
                self.tokens.append(Token("num", _VULGAR_FRACTIONS[char], column))
                self.i += 1
            elif char in _UNICODE_OPS:
                mapped = _UNICODE_OPS[char]
                kind = "name" if mapped in _NAME_OPERATORS else "op"
                self.tokens.append(Token(kind, mapped, column))
                self.i += 1
            elif char in _RAISED_LETTERS:
                # β₁ᵗ and eˣ: a raised name is a power
                end = self.i
                while end < len(text) and text[end] in _RAISED_LETTERS:
                    end += 1
                raised = text[self.i : end].translate(_RAISED)
                self.tokens += [Token("op", "^", column), Token("name", raised, column)]
                self.i = end
            elif char in "⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺":
                end = self.i
                while end < len(text) and text[end] in "⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺":
                    end += 1
                power = text[self.i : end].translate(_SUPERSCRIPTS)
                self.tokens.append(Token("sup", power, column))
                self.i = end
            elif char == "\\":
                self.command(column)
            else:
                raise self.error(f"unexpected '{char}'", column)
        self.tokens.append(Token("end", "", len(text) + 1))
        return self.tokens

    def number(self, match: re.Match[str], column: int) -> None:
        digits = sum(c.isdigit() for c in match.group(1))
        if digits > MAX_LITERAL_DIGITS:
            raise TooLarge(f"number too long to judge at column {column}", column)
        if match.group(2) and abs(int(match.group(2)[1:])) > MAX_EXPONENT:
            raise TooLarge(f"number too large to judge at column {column}", column)
        self.tokens.append(Token("num", match.group(0), column))
        self.i = match.end()

    # names ---------------------------------------------------------------------

    def _command_at(self, i: int) -> str | None:
        match = _LATEX_COMMAND.match(self.text, i)
        return match.group(1) if match else None

    def name_start(self) -> bool:
        char = self.text[self.i]
        base = _base_letter(char)
        if (base.isascii() and base.isalpha()) or base in GREEK:
            return True
        command = self._command_at(self.i) if char == "\\" else None
        return command is not None and (
            command in GREEK_NAMES
            or command in VARIANT_LETTERS
            or command in ACCENT_COMMANDS
            or command in _LATEX_FUNCTIONS
            or command in _LATEX_NAME_WRAPPERS
        )

    def name(self) -> str:
        """Read one name and return its text as typed (keys are made by the parser)."""
        start = self.i
        self.name_head()
        self.name_tail()
        return self.text[start : self.i]

    def name_head(self) -> None:
        text = self.text
        char = text[self.i]
        if char == "\\":
            match = _LATEX_COMMAND.match(text, self.i)
            assert match is not None
            command = match.group(1)
            self.i = match.end()
            if command in ACCENT_COMMANDS or command in _LATEX_NAME_WRAPPERS:
                group = _GROUP.match(text, self.i)
                bare = None if group else _BARE_ARGUMENT.match(text, self.i)
                if bare and bare.group(1).startswith("\\"):
                    letter = bare.group(1)[1:]
                    if letter not in GREEK_NAMES and letter not in VARIANT_LETTERS:
                        bare = None  # \hat\sqrt is no name
                if bare:
                    self.i = bare.end()
                elif not group or not group.group(1).strip():
                    raise self.error(f"expected {{name}} after \\{command}", self.i + 1)
                else:
                    self.i = group.end()
            elif (digits := re.match(r"\d+", text[self.i :])) and command in GREEK_NAMES:
                self.i += digits.end()  # \beta1 is beta1, as β1 is
            return
        if _base_letter(char) in GREEK or not char.isascii():
            # β1 and βhat are names; γV and λI are products, as they are on paper.
            # A precomposed letter (ᾱ, ȳ) is one letter with its accent.
            self.i += 1
            if match := _GREEK_TAIL.match(text, self.i):
                self.i = match.end()
            return
        match = _LETTERS.match(text, self.i)
        assert match is not None
        self.i = match.end()

    def name_tail(self) -> None:
        """Subscripts and accents that belong to the name: ``_1``, ``_{max}``, ``₁``, ``̂``."""
        text = self.text
        while self.i < len(text):
            char = text[self.i]
            if match := _COMBINING.match(text, self.i):
                self.i = match.end()
            elif char in SUBSCRIPTS:
                self.i += 1
            elif char == "_" and self.i + 1 < len(text):
                following = text[self.i + 1]
                if following == "{":
                    close = _closing_brace(text, self.i + 1)
                    if close < 0:
                        raise self.error("expected '}'", len(text) + 1)
                    if not self.name_subscript(text[self.i + 2 : close]):
                        return  # \sum_{i=0}: a sum's bounds, read by the parser
                    self.i = close + 1
                elif match := _ALNUM.match(text, self.i + 1):
                    self.i = match.end()
                elif following in GREEK:
                    self.i += 2
                elif following == "\\" and (self._command_at(self.i + 1) or "") in GREEK_NAMES:
                    command = _LATEX_COMMAND.match(text, self.i + 1)
                    assert command is not None
                    self.i = command.end()
                else:
                    return
            else:
                return

    @staticmethod
    def name_subscript(inside: str) -> bool:
        """Whether ``{inside}`` after ``_`` is part of a name (not ``i=0`` or ``+``)."""
        stripped = inside.strip()
        return bool(stripped) and "=" not in stripped and stripped not in ("+", "-")

    def command(self, column: int) -> None:
        match = _LATEX_COMMAND.match(self.text, self.i)
        command = match.group(1) if match else ""
        self.i = match.end() if match else self.i + 1
        if command in ("left", "right") and self.text.startswith("|", self.i):
            # \left| opens an absolute value and \right| closes it: no guessing.
            self.tokens.append(Token("op", "⎸" if command == "left" else "⎹", column))
            self.i += 1
            return
        if command in _LATEX_SKIP:
            return
        if command in _LATEX_OPS:
            mapped = _LATEX_OPS[command]
            if command == "sqrt":
                mapped = "\\sqrt"  # a LaTeX root may have an index: \sqrt[3]{x}
            elif command in ("top", "intercal"):
                mapped = "\\top"  # a transpose even where T is a symbol
            kind = "name" if mapped in _NAME_OPERATORS or mapped.startswith("\\") else "op"
            self.tokens.append(Token(kind, mapped, column))
            return
        if command == "pi":
            self.tokens.append(Token("name", "pi", column))
            return
        raise UnknownCommand(command, column)


_SUBSCRIPT_DIGITS = str.maketrans("₀₁₂₃₄₅₆₇₈₉₊", "0123456789+")


def _closing_brace(text: str, opening: int) -> int:
    """The index of the ``}`` that closes the ``{`` at ``opening``, or -1."""
    depth = 0
    for index in range(opening, len(text)):
        if text[index] == "{":
            depth += 1
        elif text[index] == "}":
            depth -= 1
            if depth == 0:
                return index
    return -1


def tokenize(text: str) -> list[Token]:
    """Split an answer into tokens, each with its column in ``text``."""
    return _Lexer(text).run()
