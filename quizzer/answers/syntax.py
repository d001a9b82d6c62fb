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

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from quizzer.answers import functions

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


class UnknownSymbol(AnswerError):
    """A name the card does not declare."""

    def __init__(self, name: str, column: int, known: Iterable[str]) -> None:
        names = ", ".join(known)
        uses = f" (this card uses {names})" if names else " (this card declares no symbols)"
        super().__init__(f"unknown symbol '{name}'{uses}", column)
        self.name = name


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
    kind: str  # num, name, op, end
    text: str
    column: int  # 1-based column in the original answer


_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_UNICODE_OPS = {
    "·": "*", "×": "*", "⋅": "*", "∙": "*", "∗": "*",
    "−": "-", "–": "-", "÷": "/", "√": "sqrt", "ᵀ": "'", "π": "pi",
}  # fmt: skip
_LATEX_OPS = {
    "cdot": "*", "times": "*", "div": "/", "sqrt": "sqrt", "frac": "frac", "pi": "pi",
    "top": "T", "intercal": "T",
}  # fmt: skip
#: Greek letters typed directly read as their names, so θ is the symbol theta.
_GREEK = {
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon", "ϵ": "epsilon",
    "η": "eta", "θ": "theta", "λ": "lambda", "μ": "mu", "ν": "nu", "ρ": "rho", "σ": "sigma",
    "τ": "tau", "φ": "phi", "ω": "omega", "Σ": "Sigma",
}  # fmt: skip
_LATEX_FUNCTIONS = set(functions.latex_commands())
_LATEX_SKIP = {"left", "right", "big", "Big", "bigl", "bigr", "Bigl", "Bigr", ",", ";", "!", " "}
_NUMBER = re.compile(r"(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:_(?:\{[A-Za-z0-9]+\}|[A-Za-z0-9]+))*")
_NAME_TAIL = re.compile(r"[A-Za-z0-9]*(?:_(?:\{[A-Za-z0-9]+\}|[A-Za-z0-9]+))*")
_LATEX_COMMAND = re.compile(r"\\([A-Za-z]+|.)")
_SINGLE_OPS = set("+-*/^(),'![]{}|")


def tokenize(text: str) -> list[Token]:
    """Split an answer into tokens, each with its column in ``text``."""
    tokens: list[Token] = []
    i = 0
    while i < len(text):
        char = text[i]
        column = i + 1
        if char.isspace():
            i += 1
            continue
        if match := _NUMBER.match(text, i):
            digits = sum(c.isdigit() for c in match.group(1))
            if digits > MAX_LITERAL_DIGITS:
                raise TooLarge(f"number too long to judge at column {column}", column)
            if match.group(2) and abs(int(match.group(2)[1:])) > MAX_EXPONENT:
                raise TooLarge(f"number too large to judge at column {column}", column)
            tokens.append(Token("num", match.group(0), column))
            i = match.end()
        elif match := _NAME.match(text, i):
            name = match.group(0).replace("{", "").replace("}", "")
            tokens.append(Token("name", name, column))
            i = match.end()
        elif text.startswith("**", i):
            tokens.append(Token("op", "^", column))
            i += 2
        elif char in _SINGLE_OPS:
            tokens.append(Token("op", "^" if char == "^" else char, column))
            i += 1
        elif char in _GREEK:
            # β1 and β_1 are the names beta1 and beta_1, as a learner means them.
            suffix = _NAME_TAIL.match(text, i + 1)
            tail = suffix.group(0).replace("{", "").replace("}", "") if suffix else ""
            tokens.append(Token("name", _GREEK[char] + tail, column))
            i = suffix.end() if suffix else i + 1
        elif char in _UNICODE_OPS:
            mapped = _UNICODE_OPS[char]
            kind = "name" if mapped in ("sqrt", "pi") else "op"
            tokens.append(Token(kind, mapped, column))
            i += 1
        elif char in "⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺":
            end = i
            while end < len(text) and text[end] in "⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺":
                end += 1
            tokens.append(Token("sup", text[i:end].translate(_SUPERSCRIPTS), column))
            i = end
        elif char == "\\":
            match = _LATEX_COMMAND.match(text, i)
            command = match.group(1) if match else ""
            i = match.end() if match else i + 1
            if command in _LATEX_SKIP:
                continue
            if command in ("operatorname", "mathrm", "text", "mathit"):
                group = re.match(r"\s*\{\s*([A-Za-z]+)\s*\}", text[i:])
                if not group:
                    raise AnswerError(
                        f"expected {{name}} after \\{command} at column {column}", column
                    )
                tokens.append(Token("name", group.group(1), column))
                i += group.end()
            elif command in _LATEX_OPS:
                mapped = _LATEX_OPS[command]
                kind = "op" if mapped in ("*", "/") else "name"
                tokens.append(Token(kind, mapped, column))
            elif command in _LATEX_FUNCTIONS or command in _GREEK.values():
                tokens.append(Token("name", command, column))
            else:
                raise AnswerError(f"unknown LaTeX command '\\{command}' at column {column}", column)
        else:
            raise AnswerError(f"unexpected '{char}' at column {column}", column)
    tokens.append(Token("end", "", len(text) + 1))
    return tokens


# -- parsing --------------------------------------------------------------------

_CLOSING = {"(": ")", "[": "]", "{": "}", "|": "|"}
_ADD_BP, _MUL_BP, _UNARY_BP, _PREFIX_FN_BP, _POW_BP, _POSTFIX_BP = 10, 20, 30, 35, 40, 50


@dataclass(frozen=True)
class SymbolTable:
    """The names an answer may use: the card's symbols and their aliases."""

    canonical: Mapping[str, str]  # every accepted spelling -> symbol name
    matrices: frozenset[str] = frozenset()
    positives: frozenset[str] = frozenset()

    @property
    def names(self) -> list[str]:
        return list(dict.fromkeys(self.canonical.values()))


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
        return "T" not in self.symbols.canonical

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
            if token.text in ("'", "!"):
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
        if text in self.symbols.canonical:
            return Sym(self.symbols.canonical[text])
        function = FUNCTION_ALIASES.get(text, text)
        if function in FUNCTIONS:
            return self.call(function, token)
        if text in CONSTANTS:
            return Const(text)
        split = self.split_name(text)
        if split is not None:
            # Put the pieces back as separate names so that `QKᵀ` reads as Q·Kᵀ.
            pieces = [Token("name", part, token.column) for part in split[1:]]
            self.tokens[self.position : self.position] = pieces
            return Sym(split[0])
        raise UnknownSymbol(text, token.column, self.symbols.names)

    def group(self, command: str) -> Node:
        token = self.peek()
        if not (token.kind == "op" and token.text == "{"):
            raise AnswerError(
                f"expected '{{' after {command} at column {token.column}", token.column
            )
        self.advance()
        inner = self.expression()
        self.expect("}")
        return inner

    def call(self, function: str, token: Token) -> Node:
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
        if not least <= len(args) <= most:
            wanted = str(least) if least == most else f"{least} to {most}"
            raise AnswerError(
                f"{function} takes {wanted} argument{'s' if most > 1 else ''}, "
                f"not {len(args)} (column {token.column})",
                token.column,
            )
        return Call(function, tuple(args))

    def split_name(self, text: str) -> list[str] | None:
        """``QK`` is ``Q K`` when both are symbols: learners often drop the space."""
        if "_" in text:
            return None
        parts: list[str] = []
        rest = text
        while rest:
            for size in range(len(rest), 0, -1):
                if rest[:size] in self.symbols.canonical:
                    parts.append(self.symbols.canonical[rest[:size]])
                    rest = rest[size:]
                    break
            else:
                return None
        return parts if len(parts) > 1 else None


def parse(text: str, symbols: SymbolTable) -> Node:
    """Parse an answer into a tree, checking every size limit on the way.

    Raises :class:`AnswerError` (or its subclasses) with a message for the learner.
    """
    if len(text) > MAX_LENGTH:
        raise TooLarge(
            f"answer too long to judge ({len(text)} characters; the limit is {MAX_LENGTH})"
        )
    tokens = tokenize(text)
    parser = _Parser(tokens, symbols)
    try:
        tree = parser.expression()
    except RecursionError:  # pragma: no cover - MAX_DEPTH keeps us far from it
        raise TooLarge("answer nested too deeply to judge") from None
    token = parser.peek()
    if token.kind != "end":
        raise AnswerError(f"unexpected '{token.text}' at column {token.column}", token.column)
    check_size(tree)
    return tree


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
            if node.op == "+":
                return left + right
            if node.op == "-":
                return left - right
            if node.op == "*":
                return left * right
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
