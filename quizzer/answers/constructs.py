"""The parser's notations beyond operators: roots, sums, binomials, norms, transposes.

Each is read whole or refused with a column, never read as something else:
``\\sqrt[3]{x}`` is the cube root (not ``sqrt(3)·x``), ``\\sum_{i=0}^{n}`` binds
``i`` in its body only, ``C(n, k)`` is a binomial only where ``C`` is no symbol
of the card. :class:`Constructs` is a part of the parser in
:mod:`quizzer.answers.syntax`, which supplies the token helpers it uses.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import TYPE_CHECKING, Protocol

from quizzer.answers import functions
from quizzer.answers.functions import SERIES_FORMS
from quizzer.answers.lexer import _NUMBER, TRANSPOSE_MARKS, Token, tokenize
from quizzer.answers.reading import (
    CONSTANTS,
    AnswerError,
    Binary,
    Call,
    Neg,
    Node,
    Num,
    Series,
    Transpose,
)
from quizzer.answers.words import UNITS
from quizzer.names import GREEK, name_key


class Names(Protocol):
    """What the constructs ask of a symbol table (:class:`quizzer.answers.syntax.SymbolTable`)."""

    def symbol(self, typed: str) -> str | None: ...


#: Signs a sum or product is written with before its limits: \\sum, Σ, \\Sigma.
SERIES_SIGNS = {
    sign: kind
    for kind, spellings, commands, _ in SERIES_FORMS
    for letter in spellings
    if letter in GREEK
    for sign in (*commands, *("\\" + command for command in commands), letter, "\\" + GREEK[letter])
}
#: Sums and products written as calls: sum(f, i, 0, n), Sum(f, (i, 0, oo)).
SERIES_CALLS = {
    name: kind
    for kind, spellings, _, _ in SERIES_FORMS
    for name in (kind, *spellings)
    if name.isascii()
}
#: How an unbounded upper limit is written.
INFINITY = frozenset({"∞", "oo", "inf", "infty", "infinity", "Infinity"})
#: The names whose LaTeX form takes two {…} groups.
_TWO_GROUPS = frozenset({"\\binom", "\\dbinom", "\\tbinom"})
_BOUND = re.compile(r"^\s*(.+?)\s*=\s*(.+?)\s*$")
_SUM_BP = 10  # a sum's body runs to the next + or -, as on paper


#: Names an alias may not take, since each already means something: constants
#: (with ``i``, the imaginary unit), every function's names, and the words of sums.
_RESERVED_NAMES = {
    **{name_key(name): f"the constant {name}" for name in (*CONSTANTS, "i")},
    **{
        name_key(name): f"the function {function}"
        for function, names in functions.names_by_function().items()
        for name in names
    },
    **{name_key(name): f"the {kind}" for name, kind in SERIES_CALLS.items()},
}


def shadowed_by(alias: str) -> str | None:
    """What an alias spelled ``alias`` would hide, if anything: a constant, a
    function or a unit word (``bytes``).

    Such an alias is not read as its symbol, except one that names a function
    (``sigma`` for a standard deviation, ``norm``): that is the symbol unless a
    bracket follows, so ``sigma^2`` is the symbol and ``sigma(z)`` the sigmoid.
    """
    key = name_key(alias)
    if key in _RESERVED_NAMES:
        return _RESERVED_NAMES[key]
    if len(alias) > 3 and alias.lower() in UNITS:
        return f"the unit {alias}"  # 'b' and 'gb' are left to cards: too short to be words
    return None


class Constructs:
    """Notations the Pratt parser reads through these methods."""

    tokens: list[Token]
    position: int
    symbols: Names
    bound: list[str]

    if TYPE_CHECKING:

        def peek(self) -> Token: ...
        def advance(self) -> Token: ...
        def expect(self, text: str) -> Token: ...
        def expression(self, rbp: int = 0) -> Node: ...
        def name(self, token: Token) -> Node: ...
        def call(self, function: str, token: Token, base: Node | None = None) -> Node: ...
        def __init__(self, tokens: list[Token], symbols: Names, bound: list[str]) -> None: ...

    def is_op(self, text: str, offset: int = 0) -> bool:
        index = min(self.position + offset, len(self.tokens) - 1)
        token = self.tokens[index]
        return token.kind == "op" and token.text == text

    # LaTeX arguments ---------------------------------------------------------
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

    # roots ---------------------------------------------------------------------
    def root(self, token: Token) -> Node | None:
        """``\\sqrt[n]{x}`` (and ``√[n]{x}``): the n-th root; None if no index follows."""
        if not self.is_op("["):
            return None
        if token.text != "\\sqrt" and not self._index_then_group():
            return None  # √[x + 1] is a bracketed radicand
        self.advance()
        index = self.expression()
        self.expect("]")
        radicand = self.group("\\sqrt")
        if index == Num(Fraction(3)):
            return Call("cbrt", (radicand,))
        if index == Num(Fraction(2)):
            return Call("sqrt", (radicand,))
        return Binary("^", radicand, Binary("/", Num(Fraction(1)), index))

    def _index_then_group(self) -> bool:
        depth = 0
        for index in range(self.position, len(self.tokens)):
            token = self.tokens[index]
            if token.kind == "op" and token.text in "([{":
                depth += 1
            elif token.kind == "op" and token.text in ")]}":
                depth -= 1
                if depth == 0:
                    following = self.tokens[index + 1]
                    return following.kind == "op" and following.text == "{"
        return False

    # transposes --------------------------------------------------------------
    def transpose_mark(self, token: Token) -> bool:
        """Whether ``token`` after ``^`` says transpose: T (not a symbol), ⊤, \\mathrm{T}, '."""
        if token.kind == "op" and token.text == "'":
            return True
        if token.kind != "name":
            return False
        if token.text in TRANSPOSE_MARKS and token.text != "T":
            return True
        if token.text.startswith("\\") and name_key(token.text) == "T":
            return True  # \mathrm{T}, \mathsf T: an upright T is the transpose
        return token.text == "T" and self.symbols.symbol("T") is None

    def braced_transpose(self, left: Node) -> Node | None:
        """``x^{T}``, ``x^{\\top}``, ``x^{\\prime}`` (the ``^`` already read), if so."""
        if self.transpose_mark(self.peek()):
            self.advance()
            return Transpose(left)
        if (
            self.is_op("{")
            and self.is_op("}", 2)
            and self.transpose_mark(self.tokens[self.position + 1])
        ):
            self.position += 3
            return Transpose(left)
        return None

    # binomials ---------------------------------------------------------------
    def latex_binomial(self, token: Token) -> Node | None:
        """``\\binom{n}{k}``: two groups, not one argument."""
        if token.text not in _TWO_GROUPS or not self.is_op("{"):
            return None
        top = self.group(token.text)
        return Call("binomial", (top, self.group(token.text)))

    def choose(self, top: Node) -> Node:
        """``{n \\choose k}``: the ``{`` and ``n`` are read, ``\\choose`` is next."""
        self.advance()
        bottom = self.expression()
        self.expect("}")
        return Call("binomial", (top, bottom))

    def binomial_letter(self, token: Token) -> Node | None:
        """``C(n, k)`` as the pass@k prompt writes it, where C is no symbol of the card."""
        if token.text != "C" or self.symbols.symbol("C") is not None or not self.is_op("("):
            return None
        return self.call("binomial", token)

    def transpose_call(self, token: Token) -> Node | None:
        """``transpose(x)`` and ``\\operatorname{transpose}{\\left(x \\right)}`` (SymPy's)."""
        if name_key(token.text) != "transpose" or not (self.is_op("(") or self.is_op("{")):
            return None
        opening = self.advance()
        inner = self.expression()
        self.expect(")" if opening.text == "(" else "}")
        return Transpose(inner)

    # norms, floors -----------------------------------------------------------
    def norm(self, token: Token) -> Node:
        inner = self.expression()
        self.expect("‖")
        following = self.peek()
        if following.kind == "sub":
            self.advance()
            if following.text not in ("2", "F"):
                raise AnswerError(
                    f"only the 2-norm is read, not ‖…‖_{following.text} "
                    f"(column {following.column})",
                    following.column,
                )
        return Call("norm", (inner,))

    def bracket_function(self, token: Token) -> Node:
        """``⌊x⌋`` and ``⌈x⌉``."""
        inner = self.expression()
        self.expect("⌋" if token.text == "⌊" else "⌉")
        return Call("floor" if token.text == "⌊" else "ceil", (inner,))

    # sums and products -------------------------------------------------------
    def series(self, token: Token) -> Node | None:
        """``\\sum_{i=0}^{n} body``, ``Σ_{t=0}^{∞}``, ``\\prod_{l=1}^{L}``, if one starts here."""
        kind = SERIES_SIGNS.get(token.text)
        following = self.peek()
        # \Sigma alone may be a card's symbol; \sum alone is a sum without its limits.
        if following.kind != "sub" and token.text in ("\\sum", "\\prod"):
            raise AnswerError(
                f"a {kind} needs its index and limits, like {token.text}_{{i=0}}^{{n}} "
                f"(column {token.column})",
                token.column,
            )
        if kind is None or following.kind != "sub":
            return None
        bound = _BOUND.match(following.text)
        if bound is None:
            raise AnswerError(
                f"a {kind} needs its index and start, like _{{i=0}} (column {following.column})",
                following.column,
            )
        self.advance()
        variable = self.bound_variable(bound.group(1), following)
        low = self.sub_expression(bound.group(2), following.column)
        if not self.is_op("^"):
            raise AnswerError(
                f"a {kind} needs its upper limit, like ^{{n}} (column {following.column})",
                following.column,
            )
        self.advance()
        high = self.upper_limit()
        self.bound.append(variable)
        try:
            body = self.expression(_SUM_BP)
        finally:
            self.bound.pop()
        return self.make_series(kind, variable, low, high, token, body)

    @staticmethod
    def make_series(
        kind: str, variable: str, low: Node, high: Node | None, token: Token, body: Node
    ) -> Node:
        if high is None and kind == "prod":
            raise AnswerError(
                f"an infinite product is not read (column {token.column})", token.column
            )
        return Series(kind, variable, low, high, body)

    def upper_limit(self) -> Node | None:
        token = self.peek()
        if self.is_infinity(token):
            self.advance()
            return None
        if (
            self.is_op("{")
            and self.is_infinity(self.tokens[self.position + 1])
            and self.is_op("}", 2)
        ):
            self.position += 3
            return None
        if token.kind == "num":
            self.advance()
            if not token.text.isdigit():
                raise AnswerError(
                    f"a limit is a whole number (column {token.column})", token.column
                )
            return Num(Fraction(int(token.text)))
        if self.is_op("{"):
            return self.group("^")
        if token.kind == "name":
            return self.expression(60)  # one name: ^n, ^L
        raise AnswerError(f"expected the upper limit at column {token.column}", token.column)

    @staticmethod
    def is_infinity(token: Token) -> bool:
        return (token.kind in ("op", "name") and token.text.lstrip("\\") in INFINITY) or (
            token.kind == "op" and token.text == "∞"
        )

    def bound_variable(self, text: str, token: Token) -> str:
        if not re.fullmatch(r"\\?[A-Za-z]+(_?\d+)?", text.strip()):
            raise AnswerError(
                f"a {text!r} is no index of a sum (column {token.column})", token.column
            )
        return name_key(text.strip())

    def sub_expression(self, text: str, column: int) -> Node:
        """Parse a bound written inside a subscript (``0`` in ``_{i=0}``)."""
        try:
            parser = type(self)(tokenize(text), self.symbols, self.bound)
            tree = parser.expression()
            if parser.peek().kind != "end":
                raise AnswerError(f"unreadable lower limit at column {column}", column)
        except AnswerError as error:
            raise AnswerError(
                f"{error.message} (in the limit at column {column})", column
            ) from None
        return tree

    def series_call(self, token: Token) -> Node | None:
        """``sum(f, i, 0, n)`` and SymPy's ``Sum(f, (i, 0, oo))``."""
        kind = SERIES_CALLS.get(token.text)
        if kind is None or not self.is_op("(") or self.symbols.symbol(token.text) is not None:
            return None
        variable_token = self._series_call_variable()
        if variable_token is None:
            return None
        variable = self.bound_variable(variable_token.text, variable_token)
        self.advance()  # (
        self.bound.append(variable)
        try:
            body = self.expression()
        finally:
            self.bound.pop()
        self.expect(",")
        wrapped = self.is_op("(")
        if wrapped:
            self.advance()
        self.advance()  # the variable, found above
        self.expect(",")
        low = self.expression()
        self.expect(",")
        if self.is_infinity(self.peek()):
            self.advance()
            high = None
        else:
            high = self.expression()
        if wrapped:
            self.expect(")")
        self.expect(")")
        return self.make_series(kind, variable, low, high, token, body)

    def _series_call_variable(self) -> Token | None:
        """The index of ``sum(f, i, ...)``: the name after the first top-level comma."""
        depth = 0
        for index in range(self.position, len(self.tokens) - 1):
            token = self.tokens[index]
            if token.kind == "op" and token.text in "([{":
                depth += 1
            elif token.kind == "op" and token.text in ")]}":
                depth -= 1
                if depth == 0:
                    return None
            elif token.kind == "op" and token.text == "," and depth == 1:
                following = self.tokens[index + 1]
                if following.kind == "op" and following.text == "(":
                    following = self.tokens[index + 2]
                return following if following.kind == "name" else None
        return None
