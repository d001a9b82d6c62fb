"""The answer parser: what it reads, how it reads it, and what it refuses."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quizzer.answers.symbolic import plain, to_sympy
from quizzer.answers.syntax import (
    AnswerError,
    SymbolTable,
    TooLarge,
    UnknownSymbol,
    parse,
    tokenize,
)

TABLE = SymbolTable(
    canonical={
        "d_k": "d_k",
        "dk": "d_k",
        "x": "x",
        "a": "a",
        "n": "n",
        "Q": "Q",
        "K": "K",
        "V": "V",
    },
    matrices=frozenset({"Q", "K", "V"}),
    positives=frozenset({"d_k", "n"}),
)


def read(text: str) -> str:
    return plain(to_sympy(parse(text, TABLE), TABLE))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Python, calculator and implicit multiplication
        ("sqrt(d_k)", "sqrt(d_k)"),
        ("d_k**0.5", "sqrt(d_k)"),
        ("d_k^(1/2)", "sqrt(d_k)"),
        ("d_k ^ 0.5", "sqrt(d_k)"),
        ("2 d_k", "2*d_k"),
        ("2d_k", "2*d_k"),
        ("2(x+1)", "2*x + 2"),
        ("x(x+1)", "x*(x + 1)"),
        ("-x^2", "-x**2"),
        ("2^-1", "1/2"),
        ("x^2^3", "x**8"),
        ("1/2x", "x/2"),
        ("(x)", "x"),
        ("[x + a]", "a + x"),
        ("+x", "x"),
        ("x - -a", "a + x"),
        # decimals are exact
        ("0.5", "1/2"),
        ("5.1e-2", "51/1000"),
        (".25 x", "x/4"),
        ("1E3", "1000"),
        # Unicode
        ("√d_k", "sqrt(d_k)"),
        ("√(d_k)", "sqrt(d_k)"),
        ("2·x", "2*x"),
        ("2×x", "2*x"),
        ("x²", "x**2"),
        ("x⁻¹", "1/x"),
        ("x−a", "-a + x"),
        ("π", "pi"),
        ("Kᵀ", "K^T"),
        # LaTeX
        (r"\sqrt{d_k}", "sqrt(d_k)"),
        (r"\frac{1}{\sqrt{d_k}}", "1/sqrt(d_k)"),
        (r"\frac{x}{2}", "x/2"),
        (r"d_{k}^{1/2}", "sqrt(d_k)"),
        (r"x \cdot a", "a*x"),
        (r"x \times a", "a*x"),
        (r"\left( x + a \right)^{2}", "(a + x)**2"),
        (r"\log x", "log(x)"),
        (r"\ln(x)", "log(x)"),
        (r"\exp(x)", "exp(x)"),
        (r"\pi", "pi"),
        (r"K^\top", "K^T"),
        (r"\operatorname{softmax}(Q)", "softmax(Q)"),
        (r"x\,a", "a*x"),
        # transposes and matrices
        ("K^T", "K^T"),
        ("K'", "K^T"),
        ("Q K^T", "Q*K^T"),
        ("QK^T", "Q*K^T"),
        ("QKᵀV", "Q*K^T*V"),
        ("(Q K^T)^T", "K*Q^T"),
        ("softmax(Q K^T / sqrt(d_k)) V", "softmax(Q*K^T/sqrt(d_k))*V"),
        # functions, constants and aliases
        ("sqrt(dk)", "sqrt(d_k)"),
        ("sqrt dk", "sqrt(d_k)"),
        ("log(x, 2)", "log(x)/log(2)"),
        ("exp(1)", "E"),
        ("e^x", "exp(x)"),
        ("sigmoid(x)", "1/(1 + exp(-x))"),
        ("abs(x)", "Abs(x)"),
        ("|x|", "Abs(x)"),
        ("max(x, a)", "Max(a, x)"),
        ("min(n, 2)", "Min(2, n)"),
        ("tanh(x)", "tanh(x)"),
        ("n!", "factorial(n)"),
        ("factorial(5)", "120"),
    ],
)
def test_reads(text, expected):
    assert read(text) == expected


@pytest.mark.parametrize(
    ("text", "message", "column"),
    [
        ("sqrt(d_k))", "unexpected ')' at column 10", 10),
        ("sqrt(d_k", "expected ')' but found the end at column 9", 9),
        ("x +", "answer ends too early at column 4", 4),
        ("", "empty answer", 1),
        ("x # a", "unexpected '#' at column 3", 3),
        ("x = 2", "unexpected '=' at column 3", 3),
        ("(x]", "expected ')' but found ']' at column 3", 3),
        (r"\foo{x}", "unknown LaTeX command '\\foo' at column 1", 1),
        (r"\frac{x}", "expected '{' after \\frac", 9),
        ("max(x)", "max takes 2 to 8 arguments, not 1", 1),
        ("sqrt(x, a)", "sqrt takes 1 argument, not 2", 1),
        ("sqrt", "sqrt needs an argument", 5),
        ("x ^ ", "answer ends too early", 5),
    ],
)
def test_syntax_errors_name_the_column(text, message, column):
    with pytest.raises(AnswerError) as caught:
        parse(text, TABLE)
    assert message in caught.value.message
    assert caught.value.column == column


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("d_model", "d_model"),
        ("sqrt(d_model)", "d_model"),
        ("y + 1", "y"),
        ("os", "os"),
        ("system", "system"),
        ("lambda", "lambda"),
        ("import", "import"),
        ("Qz", "Qz"),
    ],
)
def test_unknown_symbols_list_the_card_symbols(text, name):
    with pytest.raises(UnknownSymbol) as caught:
        parse(text, TABLE)
    assert caught.value.name == name
    assert f"unknown symbol '{name}' (this card uses d_k, x, a, n, Q, K, V)" == caught.value.message


@pytest.mark.parametrize(
    "text",
    [
        "__import__('os').system('touch /tmp/quizzer-pwned')",
        "x.__class__",
        "().__class__.__bases__[0].__subclasses__()",
        "lambda: 0",
        "exec('1')",
        "eval('1')",
        "open('/etc/passwd')",
        "getattr(x, 'y')",
        "x; import os",
        "[c for c in ()]",
        "{'a': 1}",
        "`ls`",
        "$(ls)",
        "x if a else n",
        '"string"',
    ],
)
def test_injection_is_just_bad_syntax(text, tmp_path):
    with pytest.raises(AnswerError):
        parse(text, TABLE)


@pytest.mark.parametrize(
    "text",
    [
        "9**9**9**9",
        "9^9^9^9",
        "factorial(10**10)",
        "(10**10)!",
        "x^(10^10)",
        "2^(2^(2^(2^(2^2))))",
        "10^100000",
        "1e999999",
        "1" * 200,
        "(" * 10_000 + "x" + ")" * 10_000,
        "x" * 100_000,
        "+".join(["x"] * 400),
        "exp(exp(exp(exp(100))))",
        "((2^10000)^10000)",
        "-" * 500 + "x",
    ],
)
def test_pathological_input_is_too_large(text):
    with pytest.raises(TooLarge):
        parse(text, TABLE)


def test_large_but_legitimate_powers_are_allowed():
    parse("(x-a)^6000", TABLE)
    parse("123456789012345 x^13", TABLE)


def test_tokens_keep_columns():
    columns = [(t.text, t.column) for t in tokenize(r"2·\sqrt{d_k}")][:4]
    assert columns == [("2", 1), ("*", 2), ("\\sqrt", 3), ("{", 8)]


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_arbitrary_text_raises_only_answer_errors(text):
    with contextlib.suppress(AnswerError):
        parse(text, TABLE)


answer_alphabet = st.sampled_from(
    [
        *list("xandk QKV()[]{}+-*/^'!,.0123456789 "),
        "**",
        "sqrt",
        "d_k",
        r"\frac",
        r"\sqrt",
        "√",
        "ᵀ",
        "²",
        "log",
        "e",
        "pi",
        "|",
    ]
)


@settings(max_examples=500, deadline=None)
@given(st.lists(answer_alphabet, max_size=25).map("".join))
def test_formula_like_text_raises_only_answer_errors(text):
    try:
        tree = parse(text, TABLE)
    except AnswerError:
        return
    to_sympy(tree, TABLE)  # whatever parses also builds
