"""Reading an answer: text to an expression tree, without evaluating anything.

A small lexer and a Pratt parser accept what learners actually type: Python
(``**``, ``*``), calculator (``^``, implicit multiplication), Unicode (``√``,
``·``, ``×``, ``ᵀ``, ``²``) and a LaTeX subset (``\\sqrt{}``, ``\\frac{}{}``,
``^{}``, ``_{}``, ``\\cdot``, ``\\left( \\right)``, ``\\log``, ``\\exp``).

The tree is built from quizzer's own node types; no text ever reaches
``eval``, ``exec``, ``sympify`` or ``parse_expr``. Names must be the card's
symbols (or their aliases), a fixed list of functions, or ``pi`` and ``e``.
Size limits are enforced here, before anything is computed, so a hostile
answer costs microseconds.
"""

from __future__ import annotations

import contextlib
import difflib
import math
import operator
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property

from quizzer.answers import functions
from quizzer.answers.words import within_one_edit
from quizzer.names import (
    ACCENT_COMMANDS,
    GREEK,
    GREEK_NAMES,
    SUBSCRIPTS,
    VARIANT_LETTERS,
    name_key,
)

# -- limits ---------------------------------------------------------------------

MAX_LENGTH = 1_000  # characters in one answer
MAX_DEPTH = 60  # nested sub-expressions
MAX_NODES = 400  # nodes in the tree
MAX_LITERAL_DIGITS = 60  # digits in one number
MAX_EXPONENT = 10_000  # |n| in x^n; (x-a)^6000 is legitimate
MAX_DIGITS = 20_000  # decimal digits of any constant the tree implies
MAX_FACTORIAL = 2_000

# -- errors ---------------------------------------------------------------------


class AnswerError(Exception):
    """An answer that cannot be judged. ``message`` is written for the learner."""

    kind = "unreadable"

    def __init__(self, message: str, column: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.column = column


class TooLarge(AnswerError):
    """The answer is beyond the judge's size limits."""

    kind = "too_large"


def did_you_mean(typed: str, known: Iterable[str]) -> str | None:
    """The known word closest to a typo (``sigmiod`` -> ``sigmoid``), if one is close."""
    if len(typed) < 4:
        return None  # two or three letters resemble too many names to guess from
    candidates = [word for word in dict.fromkeys(known) if word != typed]
    # One slip (a swap before a dropped letter: tahn is tanh, not tan) beats a likeness.
    for same_length in (True, False):
        for word in candidates:
            if (len(word) == len(typed)) is same_length and within_one_edit(typed, word):
                return word
    close = difflib.get_close_matches(typed, candidates, n=1, cutoff=0.75)
    if not close:
        lowered = {word.lower(): word for word in candidates}
        close = [lowered[w] for w in difflib.get_close_matches(typed.lower(), lowered, 1, 0.75)]
    return close[0] if close else None


class UnknownSymbol(AnswerError):
    """A name the card does not declare."""

    def __init__(
        self, name: str, column: int, known: Iterable[str], suggestion: str | None = None
    ) -> None:
        names = ", ".join(known)
        uses = f" (this card uses {names})" if names else " (this card declares no symbols)"
        hint = f"; did you mean '{suggestion}'?" if suggestion else ""
        super().__init__(f"unknown symbol '{name}'{uses}{hint}", column)
        self.name = name
        self.suggestion = suggestion


class CircularDefinition(AnswerError):
    """A defined symbol whose definition leads back to itself."""


class UnknownCommand(AnswerError):
    """A LaTeX command outside the subset answers may use."""

    def __init__(self, command: str, column: int) -> None:
        self.suggestion = did_you_mean(command, LATEX_COMMANDS)
        hint = f"; did you mean '\\{self.suggestion}'?" if self.suggestion else ""
        super().__init__(f"unknown LaTeX command '\\{command}' at column {column}{hint}", column)
        self.command = command


# -- the tree -------------------------------------------------------------------


class Node:
    """Base class of expression nodes. Nodes are immutable values."""

    __slots__ = ()


@dataclass(frozen=True)
class Num(Node):
    value: Fraction


@dataclass(frozen=True)
class Sym(Node):
    name: str


@dataclass(frozen=True)
class Const(Node):
    name: str  # "pi" or "e"


@dataclass(frozen=True)
class Neg(Node):
    operand: Node


@dataclass(frozen=True)
class Binary(Node):
    op: str  # one of + - * / ^
    left: Node
    right: Node


#: The operators whose meaning no evaluator changes; '/' and '^' differ (zero
#: divisors, overflow, matrices, size limits), so each evaluator writes its own.
PLAIN_ARITHMETIC = {"+": operator.add, "-": operator.sub, "*": operator.mul}


@dataclass(frozen=True)
class Transpose(Node):
    operand: Node


@dataclass(frozen=True)
class Call(Node):
    function: str
    args: tuple[Node, ...]


#: Functions an answer may call, with how many arguments each takes, and the
#: other names they go by: read from the one registry of answer functions.
FUNCTIONS: dict[str, tuple[int, int]] = functions.arities()
FUNCTION_ALIASES = functions.spellings()
CONSTANTS = ("pi", "e")


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
    "−": "-", "–": "-", "÷": "/", "√": "sqrt", "ᵀ": "'", "∣": "|", "‖": "|",
}  # fmt: skip
_VULGAR_FRACTIONS = {
    "½": "1/2", "⅓": "1/3", "⅔": "2/3", "¼": "1/4", "¾": "3/4", "⅕": "1/5", "⅖": "2/5",
    "⅗": "3/5", "⅘": "4/5", "⅙": "1/6", "⅚": "5/6", "⅛": "1/8", "⅜": "3/8", "⅝": "5/8",
    "⅞": "7/8",
}  # fmt: skip
_LATEX_OPS = {
    "cdot": "*", "times": "*", "div": "/", "sqrt": "sqrt", "frac": "frac", "dfrac": "frac",
    "tfrac": "frac", "cfrac": "frac", "top": "T", "intercal": "T", "mid": "|",
    "vert": "|", "lvert": "|", "rvert": "|", "lbrace": "{", "rbrace": "}",
}  # fmt: skip
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
_LATEX_NAME_WRAPPERS = ("operatorname", "mathrm", "text", "mathit", "mathbf", "boldsymbol")
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
            elif char in _SINGLE_OPS:
                self.tokens.append(Token("op", char, column))
                self.i += 1
            elif char in _VULGAR_FRACTIONS:
                self.tokens.append(Token("num", _VULGAR_FRACTIONS[char], column))
                self.i += 1
            elif char in _UNICODE_OPS:
                mapped = _UNICODE_OPS[char]
                self.tokens.append(Token("name" if mapped == "sqrt" else "op", mapped, column))
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
                if not group or not group.group(1).strip():
                    raise self.error(f"expected {{name}} after \\{command}", self.i + 1)
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
                    close = text.find("}", self.i + 2)
                    if close < 0:
                        raise self.error("expected '}'", len(text) + 1)
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

    def command(self, column: int) -> None:
        match = _LATEX_COMMAND.match(self.text, self.i)
        command = match.group(1) if match else ""
        self.i = match.end() if match else self.i + 1
        if command in _LATEX_SKIP:
            return
        if command in _LATEX_OPS:
            mapped = _LATEX_OPS[command]
            kind = "name" if mapped in ("sqrt", "frac", "T") else "op"
            self.tokens.append(Token(kind, mapped, column))
            return
        if command == "pi":
            self.tokens.append(Token("name", "pi", column))
            return
        raise UnknownCommand(command, column)


def tokenize(text: str) -> list[Token]:
    """Split an answer into tokens, each with its column in ``text``."""
    return _Lexer(text).run()


# -- parsing --------------------------------------------------------------------

_CLOSING = {"(": ")", "[": "]", "{": "}", "|": "|"}
_ADD_BP, _MUL_BP, _UNARY_BP, _PREFIX_FN_BP, _POW_BP, _POSTFIX_BP = 10, 20, 30, 35, 40, 50


@dataclass(frozen=True)
class SymbolTable:
    """The names an answer may use: the card's symbols, their aliases and notations.

    ``canonical`` maps every declared spelling to its symbol; a typed name
    matches when its :func:`~quizzer.names.name_key` is a declared
    spelling's key. ``notations`` maps written notations (``P(B|A)``) to
    symbols; ``definitions`` maps a defined symbol to its definition text.
    """

    canonical: Mapping[str, str]  # every accepted spelling -> symbol name
    matrices: frozenset[str] = frozenset()
    positives: frozenset[str] = frozenset()
    notations: Mapping[str, str] = field(default_factory=dict)
    definitions: Mapping[str, str] = field(default_factory=dict)

    @property
    def names(self) -> list[str]:
        return list(dict.fromkeys(self.canonical.values()))

    @cached_property
    def keys(self) -> dict[str, str]:
        """Spelling key -> symbol; a symbol's own name wins over another's alias."""
        keys: dict[str, str] = {}
        for name in self.names:
            keys.setdefault(name_key(name), name)
        for spelling, name in self.canonical.items():
            keys.setdefault(name_key(spelling), name)
        return keys

    def symbol(self, typed: str) -> str | None:
        """The symbol a typed name means, however it is spelled."""
        return self.keys.get(name_key(typed))

    @cached_property
    def notation_patterns(self) -> list[tuple[tuple[tuple[str, str], ...], str]]:
        """Each notation as the token signatures it reads as, longest first."""
        patterns = []
        for notation, name in self.notations.items():
            try:
                tokens = tokenize(notation)[:-1]
            except AnswerError:
                continue  # `validate` reports it
            if tokens:
                patterns.append((tuple(_signature(token) for token in tokens), name))
        return sorted(patterns, key=lambda pattern: -len(pattern[0]))

    @cached_property
    def expansions(self) -> dict[str, Node]:
        """Each defined symbol as a tree in undefined symbols (cycles left out)."""
        expanded: dict[str, Node] = {}
        for name in self.definitions:
            with contextlib.suppress(AnswerError):
                expanded[name] = self.expand(name)
        return expanded

    def expand(self, name: str, seen: tuple[str, ...] = ()) -> Node:
        """The definition of ``name`` with every defined symbol in it written out.

        Raises :class:`AnswerError` for a definition that does not read or that
        leads back to itself.
        """
        if name in seen:
            cycle = " -> ".join((*seen[seen.index(name) :], name))
            raise CircularDefinition(f"definitions go round in a circle: {cycle}")
        tree = _parse_tokens(self.definitions[name], self)
        replacements = {
            used: self.expand(used, (*seen, name))
            for used in _symbols_in(tree)
            if used in self.definitions
        }
        return _substitute(tree, replacements)


def _signature(token: Token) -> tuple[str, str]:
    """What a token must be to match a notation's token: names by their key."""
    if token.kind == "name":
        return ("name", name_key(token.text))
    if token.kind == "num":
        return ("num", str(Fraction(token.text)))
    return (token.kind, token.text)


def read_notations(tokens: list[Token], symbols: SymbolTable) -> list[Token]:
    """Tokens with each declared notation (``P(B|A)``) replaced by its symbol."""
    patterns = symbols.notation_patterns
    if not patterns:
        return tokens
    signatures = [_signature(token) for token in tokens]
    result: list[Token] = []
    i = 0
    while i < len(tokens):
        for pattern, name in patterns:
            if tuple(signatures[i : i + len(pattern)]) == pattern:
                result.append(Token("name", name, tokens[i].column))
                i += len(pattern)
                break
        else:
            result.append(tokens[i])
            i += 1
    return result


def _symbols_in(tree: Node) -> set[str]:
    found: set[str] = set()
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, Sym):
            found.add(node.name)
        stack.extend(_children(node))
    return found


def _substitute(node: Node, replacements: Mapping[str, Node]) -> Node:
    """``node`` with each symbol in ``replacements`` replaced by its tree."""
    if not replacements:
        return node
    if isinstance(node, Sym):
        return replacements.get(node.name, node)
    if isinstance(node, Binary):
        return Binary(
            node.op, _substitute(node.left, replacements), _substitute(node.right, replacements)
        )
    if isinstance(node, Neg):
        return Neg(_substitute(node.operand, replacements))
    if isinstance(node, Transpose):
        return Transpose(_substitute(node.operand, replacements))
    if isinstance(node, Call):
        return Call(node.function, tuple(_substitute(a, replacements) for a in node.args))
    return node


class _Parser:
    def __init__(self, tokens: list[Token], symbols: SymbolTable) -> None:
        self.tokens = tokens
        self.position = 0
        self.symbols = symbols
        self.depth = 0

    # token helpers
    def peek(self) -> Token:
        return self.tokens[self.position]

    def advance(self) -> Token:
        token = self.tokens[self.position]
        self.position += 1
        return token

    def expect(self, text: str) -> Token:
        token = self.peek()
        if token.kind == "op" and token.text == text:
            return self.advance()
        found = "the end" if token.kind == "end" else f"'{token.text}'"
        raise AnswerError(
            f"expected '{text}' but found {found} at column {token.column}", token.column
        )

    def starts_operand(self, token: Token) -> bool:
        if token.kind in ("num", "name"):
            return not (token.kind == "name" and token.text == "T" and self._t_is_transpose())
        return token.kind == "op" and token.text in ("(", "[", "{")

    def _t_is_transpose(self) -> bool:
        return self.symbols.symbol("T") is None

    # Pratt parser
    def expression(self, rbp: int = 0) -> Node:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise TooLarge("answer nested too deeply to judge")
        left = self.prefix(self.advance())
        while True:
            token = self.peek()
            lbp = self.infix_power(token)
            if lbp <= rbp:
                break
            left = self.infix(token, left)
        self.depth -= 1
        return left

    def infix_power(self, token: Token) -> int:
        if token.kind == "op":
            if token.text in "+-":
                return _ADD_BP
            if token.text in "*/":
                return _MUL_BP
            if token.text == "^":
                return _POW_BP
            if token.text in ("'", "!", "%"):
                return _POSTFIX_BP
        if token.kind == "sup":
            return _POW_BP
        if self.starts_operand(token):
            return _MUL_BP  # implicit multiplication: 2 d_k, Q K^T, 2(x+1)
        return 0

    def infix(self, token: Token, left: Node) -> Node:
        if token.kind == "sup":
            self.advance()
            if token.text in ("+", "-") or not re.fullmatch(r"[+-]?\d+", token.text):
                raise AnswerError(f"unreadable superscript at column {token.column}", token.column)
            return Binary("^", left, Num(Fraction(int(token.text))))
        if token.kind == "op" and token.text in "+-*/":
            self.advance()
            power = _ADD_BP if token.text in "+-" else _MUL_BP
            return Binary(token.text, left, self.expression(power))
        if token.kind == "op" and token.text == "^":
            self.advance()
            following = self.peek()
            if following.kind == "name" and following.text == "T" and self._t_is_transpose():
                self.advance()
                return Transpose(left)
            return Binary("^", left, self.expression(_POW_BP - 1))
        if token.kind == "op" and token.text == "'":
            self.advance()
            return Transpose(left)
        if token.kind == "op" and token.text == "!":
            self.advance()
            return Call("factorial", (left,))
        if token.kind == "op" and token.text == "%":
            self.advance()
            return Binary("/", left, Num(Fraction(100)))
        return Binary("*", left, self.expression(_MUL_BP))

    def prefix(self, token: Token) -> Node:
        if token.kind == "end":
            if token.column == 1:
                raise AnswerError("empty answer", token.column)
            raise AnswerError(f"answer ends too early at column {token.column}", token.column)
        if token.kind == "num":
            return Num(Fraction(token.text))
        if token.kind == "name":
            return self.name(token)
        if token.kind == "op":
            if token.text in ("(", "[", "{"):
                inner = self.expression()
                self.expect(_CLOSING[token.text])
                return inner
            if token.text == "|":
                inner = self.expression()
                self.expect("|")
                return Call("abs", (inner,))
            if token.text == "-":
                return Neg(self.expression(_UNARY_BP))
            if token.text == "+":
                return self.expression(_UNARY_BP)
        raise AnswerError(f"unexpected '{token.text}' at column {token.column}", token.column)

    def name(self, token: Token) -> Node:
        text = token.text
        if text == "frac":
            numerator = self.group("\\frac")
            return Binary("/", numerator, self.group("\\frac"))
        symbol = self.symbols.symbol(text)
        if symbol is not None:
            return Sym(symbol)
        if glued := _GLUED_DIGITS.fullmatch(text):
            # \pi2 in \frac\pi2 is pi then 2 (the lexer read \beta1 as one name)
            command, digits = glued.groups()
            self.tokens.insert(self.position, Token("num", digits, token.column + len(command)))
            return self.name(Token("name", command, token.column))
        key = name_key(text)
        function = FUNCTION_ALIASES.get(key) or _LATEX_NAMES.get(key) or key
        if function in FUNCTIONS:
            return self.call(function, token)
        if base := _LOG_BASE.match(text):
            return self.call("log", token, self.log_base(base.group(1) or base.group(2), token))
        if key in CONSTANTS:
            return Const(key)
        split = self.split_name(text)
        if split is not None:
            # Put the pieces back as separate names so that `QKᵀ` reads as Q·Kᵀ.
            pieces = [Token("name", part, token.column) for part in split[1:]]
            self.tokens[self.position : self.position] = pieces
            return Sym(split[0])
        known = [*self.symbols.names, *FUNCTIONS, *FUNCTION_ALIASES, *CONSTANTS]
        raise UnknownSymbol(text, token.column, self.symbols.names, did_you_mean(text, known))

    def log_base(self, text: str, token: Token) -> Node:
        """The base of ``log_2``, ``\\log_{10}``, ``log_e`` or ``log_b``."""
        text = text.strip()
        if re.fullmatch(r"\d+(\.\d+)?", text):
            return Num(Fraction(text))
        symbol = self.symbols.symbol(text)
        if symbol is not None:
            return Sym(symbol)
        if text in CONSTANTS:
            return Const(text)
        raise UnknownSymbol(text, token.column, self.symbols.names)

    def group(self, command: str) -> Node:
        """A ``{...}`` argument, or LaTeX's one-character one (``\\frac12``, ``\\frac1{x}``)."""
        token = self.peek()
        if token.kind == "op" and token.text == "{":
            self.advance()
            inner = self.expression()
            self.expect("}")
            return inner
        single = token.kind in ("num", "name") and not token.text.startswith("\\")
        if single and (token.kind == "name" or token.text[0].isdigit()):
            self.advance()
            if len(token.text) > 1:
                kind = "num" if token.text[1].isdigit() else token.kind  # \frac x2
                rest = Token(kind, token.text[1:], token.column + 1)
                if rest.kind == "num" and not _NUMBER.fullmatch(rest.text):
                    raise AnswerError(f"unreadable number at column {rest.column}", rest.column)
                self.tokens.insert(self.position, rest)
            if token.kind == "num":
                return Num(Fraction(token.text[0]))
            return self.name(Token("name", token.text[0], token.column))
        if token.kind == "name" and token.text.startswith("\\"):
            return self.name(self.advance())  # \frac\pi2
        raise AnswerError(f"expected '{{' after {command} at column {token.column}", token.column)

    def function_power(self) -> Node | None:
        """The power in ``tanh^2(x)``, ``\\tanh^{2} x`` or ``sin²x``, if one follows."""
        token = self.peek()
        if token.kind == "sup":
            self.advance()
            if not re.fullmatch(r"-?\d+", token.text):
                raise AnswerError(f"unreadable superscript at column {token.column}", token.column)
            return Num(Fraction(int(token.text)))
        if not (token.kind == "op" and token.text == "^"):
            return None
        following = self.tokens[self.position + 1]
        if following.kind == "num":
            self.position += 2
            return Num(Fraction(following.text))
        if following.kind == "op" and following.text == "{":
            self.advance()
            return self.group("^")
        if following.kind == "op" and following.text == "-":
            number = self.tokens[self.position + 2]
            if number.kind == "num":
                self.position += 3
                return Neg(Num(Fraction(number.text)))
        return None

    def call(self, function: str, token: Token, base: Node | None = None) -> Node:
        least, most = FUNCTIONS[function]
        power = self.function_power()
        if power == Neg(Num(Fraction(1))) and f"a{function}" in FUNCTIONS:
            function, power = f"a{function}", None  # sin^{-1} x is arcsin x
            least, most = FUNCTIONS[function]
        following = self.peek()
        if following.kind == "op" and following.text in ("(", "["):
            self.advance()
            args = [self.expression()]
            while self.peek().kind == "op" and self.peek().text == ",":
                self.advance()
                args.append(self.expression())
            self.expect(_CLOSING[following.text])
        elif self.starts_operand(following):
            # \log x, sqrt d_k, √d_k: the function applies to the next factor.
            args = [self.expression(_PREFIX_FN_BP)]
        else:
            raise AnswerError(
                f"{function} needs an argument at column {following.column}", following.column
            )
        if base is not None:
            args.append(base)
        if not least <= len(args) <= most:
            wanted = str(least) if least == most else f"{least} to {most}"
            raise AnswerError(
                f"{function} takes {wanted} argument{'s' if most > 1 else ''}, "
                f"not {len(args)} (column {token.column})",
                token.column,
            )
        called = Call(function, tuple(args))
        return called if power is None else Binary("^", called, power)

    def split_name(self, text: str) -> list[str] | None:
        """``QK`` is ``Q K`` when both are symbols: learners often drop the space."""
        if "_" in text:
            return None
        parts: list[str] = []
        rest = text
        while rest:
            for size in range(len(rest), 0, -1):
                symbol = self.symbols.symbol(rest[:size])
                if symbol is not None:
                    parts.append(symbol)
                    rest = rest[size:]
                    break
            else:
                return None
        return parts if len(parts) > 1 else None


_LATEX_NAMES = functions.latex_commands()
_GLUED_DIGITS = re.compile(r"(\\[A-Za-z]+)(\d+)")
_LOG_BASE = re.compile(r"^\\?log_(?:\{([^{}]+)\}|(.+))$")


def _parse_tokens(text: str, symbols: SymbolTable) -> Node:
    """Parse ``text`` with ``symbols``' names and notations, defined symbols left as they are."""
    if len(text) > MAX_LENGTH:
        raise TooLarge(
            f"answer too long to judge ({len(text)} characters; the limit is {MAX_LENGTH})"
        )
    tokens = read_notations(tokenize(text), symbols)
    parser = _Parser(tokens, symbols)
    try:
        tree = parser.expression()
    except RecursionError:  # pragma: no cover - MAX_DEPTH keeps us far from it
        raise TooLarge("answer nested too deeply to judge") from None
    token = parser.peek()
    if token.kind != "end":
        raise AnswerError(f"unexpected '{token.text}' at column {token.column}", token.column)
    return tree


def parse(text: str, symbols: SymbolTable, *, expand: bool = True) -> Node:
    """Parse an answer into a tree, checking every size limit on the way.

    With ``expand``, defined symbols are written out (``p`` becomes
    ``sigmoid(z)``), so an answer that uses one and an answer that spells it
    out compare equal. Raises :class:`AnswerError` (or its subclasses) with a
    message for the learner.
    """
    tree = _parse_tokens(text, symbols)
    check_size(tree)
    return expand_definitions(tree, symbols) if expand else tree


def expand_definitions(tree: Node, symbols: SymbolTable) -> Node:
    """``tree`` with each defined symbol written out (``p`` -> ``sigmoid(z)``)."""
    if not symbols.definitions or not _symbols_in(tree) & symbols.definitions.keys():
        return tree
    expanded = _substitute(tree, symbols.expansions)
    check_size(expanded)
    return expanded


# -- size limits on the tree ----------------------------------------------------


def _children(node: Node) -> tuple[Node, ...]:
    if isinstance(node, Binary):
        return (node.left, node.right)
    if isinstance(node, (Neg, Transpose)):
        return (node.operand,)
    if isinstance(node, Call):
        return node.args
    return ()


def check_size(tree: Node) -> None:
    """Refuse trees whose value would be astronomically large to compute.

    Works in log10 space on constant sub-trees, so ``9^9^9^9`` is refused
    without computing ``9^9``.
    """
    count = 0
    stack = [tree]
    while stack:
        node = stack.pop()
        count += 1
        if count > MAX_NODES:
            raise TooLarge("answer too long to judge")
        stack.extend(_children(node))
    _magnitude(tree)


def _magnitude(node: Node) -> float | None:
    """log10 of an upper bound on |value| for constant sub-trees; None if symbolic."""
    if isinstance(node, Num):
        value = node.value
        if value == 0:
            return 0.0
        bits = abs(value.numerator).bit_length() - value.denominator.bit_length() + 1
        return max(bits, 0) * math.log10(2)
    if isinstance(node, Const):
        return 1.0
    if isinstance(node, Sym):
        return None
    child_sizes = [_magnitude(child) for child in _children(node)]
    if any(size is None for size in child_sizes):
        if isinstance(node, Binary) and node.op == "^":
            _check_exponent(node.right, child_sizes[1])
        return None
    sizes = [s for s in child_sizes if s is not None]
    result: float
    if isinstance(node, Binary) and node.op == "^":
        _check_exponent(node.right, sizes[1])
        exponent = _approximate(node.right)
        result = abs(exponent) * max(sizes[0], 1.0) + 1
    elif isinstance(node, Call) and node.function == "factorial":
        _check_factorial(node.args[0], sizes[0])
        argument = _approximate(node.args[0])
        result = math.lgamma(abs(argument) + 2) / math.log(10) + 1
    elif isinstance(node, Call) and node.function == "exp":
        result = min(10 ** min(sizes[0], 6), 1e12) / math.log(10) + 1
    else:
        result = sum(sizes) + 1
    if result > MAX_DIGITS:
        raise TooLarge("answer too large to judge")
    return result


def _check_exponent(exponent: Node, size: float | None) -> None:
    if size is not None and size > math.log10(MAX_EXPONENT) + 1:
        raise TooLarge("exponent too large to judge")
    if size is not None and abs(_approximate(exponent)) > MAX_EXPONENT:
        raise TooLarge("exponent too large to judge")


def _check_factorial(argument: Node, size: float) -> None:
    # The size test first, so that _approximate never meets an astronomical argument.
    if size > math.log10(MAX_FACTORIAL) + 1 or abs(_approximate(argument)) > MAX_FACTORIAL:
        raise TooLarge("factorial too large to judge")


def _approximate(node: Node) -> float:
    """A float value for a small constant sub-tree (sizes are already checked)."""
    if isinstance(node, Num):
        return float(node.value)
    if isinstance(node, Const):
        return math.pi if node.name == "pi" else math.e
    if isinstance(node, Neg):
        return -_approximate(node.operand)
    try:
        if isinstance(node, Binary):
            left, right = _approximate(node.left), _approximate(node.right)
            if node.op in PLAIN_ARITHMETIC:
                return float(PLAIN_ARITHMETIC[node.op](left, right))
            if node.op == "/":
                return left / right if right else math.inf
            return abs(left) ** right if left or right > 0 else math.inf
        if isinstance(node, Call):
            # An upper bound on |value|: every argument counts (max(1e-6, 1/1e-6)
            # is a million, not about 1), and exp grows faster than its argument.
            values = [_approximate(argument) for argument in node.args]
            if node.function == "factorial":
                return math.gamma(min(abs(values[0]), 170) + 1)
            if node.function == "exp":
                return math.exp(values[0]) if values[0] < 709 else math.inf
            return sum(abs(value) for value in values) + 1
    except (OverflowError, ZeroDivisionError, ValueError):
        return math.inf
    return 1.0
