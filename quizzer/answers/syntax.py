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
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property

from quizzer.answers import functions
from quizzer.answers.constructs import Constructs, shadowed_by
from quizzer.answers.lexer import (
    FUNCTION_ALIASES,
    FUNCTIONS,
    LATEX_COMMANDS,
    TRANSPOSE_MARKS,
    Token,
    UnknownCommand,
    tokenize,
)
from quizzer.answers.limits import MAX_DEPTH, MAX_LENGTH, check_size
from quizzer.answers.reading import (
    CONSTANTS,
    PLAIN_ARITHMETIC,
    AnswerError,
    Binary,
    Call,
    CircularDefinition,
    Const,
    Neg,
    Node,
    Num,
    Series,
    Sym,
    TooLarge,
    Transpose,
    UnknownSymbol,
    did_you_mean,
    free_symbols,
    substitute,
)
from quizzer.names import name_key

#: What the rest of quizzer takes from here: the reader's pieces live in
#: ``reading`` (nodes, errors), ``lexer`` (tokens, LaTeX), ``limits`` (sizes).
__all__ = [
    "CONSTANTS",
    "FUNCTIONS",
    "FUNCTION_ALIASES",
    "LATEX_COMMANDS",
    "PLAIN_ARITHMETIC",
    "AnswerError",
    "Binary",
    "Call",
    "CircularDefinition",
    "Const",
    "Neg",
    "Node",
    "Num",
    "Series",
    "Sym",
    "SymbolTable",
    "TooLarge",
    "Transpose",
    "UnknownCommand",
    "UnknownSymbol",
    "check_size",
    "expand_definitions",
    "parse",
    "shadowed_by",
    "tokenize",
]

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
            hidden = shadowed_by(spelling) if spelling != name else None
            if hidden is not None and not hidden.startswith("the function"):
                continue  # e as an alias of eps must not turn e^{s/2} into eps^(s/2)
            keys.setdefault(name_key(spelling), name)
        return keys

    @cached_property
    def function_aliases(self) -> frozenset[str]:
        """Keys of aliases that also name a function: read as it before a bracket."""
        own = {name_key(name) for name in self.names}
        return frozenset(
            name_key(spelling)
            for spelling, name in self.canonical.items()
            if spelling != name
            and name_key(spelling) not in own
            and (shadowed_by(spelling) or "").startswith("the function")
        )

    def symbol(self, typed: str) -> str | None:
        """The symbol a typed name means, however it is spelled."""
        found = self.keys.get(name_key(typed))
        if found is None and " " in typed:
            # SymPy writes the symbol x0_hat as x_{0 hat}: a space parts a subscript.
            found = self.keys.get(name_key(re.sub(r"\s+", "_", typed.strip())))
        return found

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
            for used in free_symbols(tree)
            if used in self.definitions
        }
        return substitute(tree, replacements)


def _signature(token: Token) -> tuple[str, str]:
    """What a token must be to match a notation's token: names by their key."""
    if token.kind == "name":
        return ("name", name_key(token.text))
    if token.kind == "num":
        return ("num", str(Fraction(token.text)))
    if token.text == "¬":
        return ("name", "not")  # P(B|¬A), P(B|\neg A) and P(B|not A) are one notation
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


class _Parser(Constructs):
    symbols: SymbolTable

    def __init__(
        self, tokens: list[Token], symbols: SymbolTable, bound: list[str] | None = None
    ) -> None:
        self.tokens = tokens
        self.position = 0
        self.symbols = symbols
        self.depth = 0
        self.bound = bound if bound is not None else []  # indices of the sums around
        self.bars = 0  # |...| open around: there a | closes, elsewhere it opens

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
        if token.kind == "op" and token.text == "|":
            return self.bars == 0  # p |f| is p·|f|; inside |a b| the bar closes
        return token.kind == "op" and token.text in ("(", "[", "{", "⌊", "⌈", "⎸")

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
            if token.text == "//":
                return _MUL_BP
            if token.text in ("'", "ᵀ", "!", "%"):
                return _POSTFIX_BP
        if token.kind == "sub":
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
        if token.kind == "op" and token.text == "//":
            self.advance()  # numpy's floor division
            return Call("floor", (Binary("/", left, self.expression(_MUL_BP)),))
        if token.kind == "sub":
            self.advance()
            if token.text == "+":
                return Call("relu", (left,))  # [x]_+, the positive part
            raise AnswerError(
                f"unexpected subscript '{token.text}' at column {token.column}", token.column
            )
        if token.kind == "op" and token.text == "^":
            self.advance()
            transposed = self.braced_transpose(left)
            if transposed is not None:
                return transposed
            return Binary("^", left, self.expression(_POW_BP - 1))
        if token.kind == "op" and token.text in ("'", "ᵀ"):
            return self.transposed(left, self.advance())
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
                if token.text == "{" and self.is_op("choose"):
                    return self.choose(inner)
                self.expect(_CLOSING[token.text])
                return inner
            if token.text == "‖":
                return self.norm(token)
            if token.text in ("⌊", "⌈"):
                return self.bracket_function(token)
            if token.text == "¬":
                raise AnswerError(
                    f"'¬' is read only inside a notation the card declares, like P(B|¬A) "
                    f"(column {token.column})",
                    token.column,
                )
            if token.text == "|":
                self.bars += 1
                inner = self.expression()
                self.expect("|")
                self.bars -= 1
                return Call("abs", (inner,))
            if token.text == "⎸":  # \left| ... \right|, \lvert ... \rvert
                inner = self.expression()
                self.expect("⎹")
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
        if self.bound and name_key(text) in self.bound:
            return Sym(name_key(text))  # the index of a sum around: local to its body
        if text in TRANSPOSE_MARKS and text != "T":
            raise AnswerError(
                f"'{text}' is a transpose only as a power, like x^{{\\top}} "
                f"(column {token.column})",
                token.column,
            )
        special = (self.root(token) if text in ("\\sqrt", "sqrt", "√") else None) or self.series(
            token
        )
        if special is not None:
            return special
        symbol = self.symbols.symbol(text)
        called = self.is_op("(") and name_key(text) in self.symbols.function_aliases
        if symbol is not None and not called:
            return Sym(symbol)
        special = (
            self.latex_binomial(token)
            or self.binomial_letter(token)
            or self.series_call(token)
            or self.transpose_call(token)
        )
        if special is not None:
            return special
        if self.is_infinity(token):
            raise AnswerError(
                f"∞ is read only as the upper limit of a sum (column {token.column})", token.column
            )
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

    def call(self, function: str, token: Token, base: Node | None = None) -> Node:
        least, most = FUNCTIONS[function]
        power = self.function_power()
        if power == Neg(Num(Fraction(1))) and f"a{function}" in FUNCTIONS:
            function, power = f"a{function}", None  # sin^{-1} x is arcsin x
            least, most = FUNCTIONS[function]
        following = self.peek()
        if following.kind == "op" and following.text in ("(", "[", "{"):
            # \log{\left(Z\right)}^{2} as SymPy writes it is (log Z)^2: a braced
            # argument ends at its brace, as a bracketed one does.
            self.advance()
            args = [self.expression()]
            while self.peek().kind == "op" and self.peek().text == ",":
                self.advance()
                args.append(self.expression())
            self.expect(_CLOSING[following.text])
        elif self.starts_operand(following) and token.text == "\\sqrt":
            # TeX's \sqrt takes one argument: \sqrt x^2 is (√x)², \sqrt d_k is √(d_k).
            args = [self.expression(_POW_BP)]
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
        if "_" in text or shadowed_by(text) is not None:
            return None  # 'bytes' is no product of b, y, t, e and s
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
    if not symbols.definitions or not free_symbols(tree) & symbols.definitions.keys():
        return tree
    expanded = substitute(tree, symbols.expansions)
    check_size(expanded)
    return expanded
