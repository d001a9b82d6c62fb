"""The one table of answer functions: every entry means the same in every evaluator.

The parser, the float, complex, 50-digit and matrix evaluators and the SymPy
read-back all take a function from ``quizzer.answers.functions``; these tests
hold each entry to one value everywhere, and each name to one meaning.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
import sympy
from sympy.core.function import AppliedUndef

from quizzer.answers import functions
from quizzer.answers.functions import BY_NAME, REGISTRY
from quizzer.answers.syntax import FUNCTION_ALIASES, FUNCTIONS, Call, Sym, SymbolTable, parse

#: Arguments inside each function's real domain, away from poles and integers.
ARGUMENTS: dict[str, list[tuple[float, ...]]] = {
    "acosh": [(1.3,), (2.5,), (7.25,)],
    **{name: [(0.3,), (-0.45,), (0.7,)] for name in ("asin", "acos", "atanh")},
    "max": [(0.3, 0.7), (-1.5, -2.5), (2.0, 1.0)],
    "min": [(0.3, 0.7), (-1.5, -2.5), (2.0, 1.0)],
    "log": [(0.3,), (1.7,), (5.5,), (8.0, 2.0), (0.5, 10.0)],
    "clip": [(0.3, 0.0, 1.0), (-0.5, 0.0, 1.0), (2.5, -1.0, 1.5)],
    "binomial": [(5.0, 2.0), (10.0, 3.0), (4.5, 2.0), (7.0, 0.0)],
    "heaviside": [(0.3,), (-0.45,), (0.0,)],
    "sign": [(0.3,), (-0.45,), (0.0,)],
    "relu": [(0.3,), (-0.45,), (0.0,), (1.7,)],
}
DEFAULT_ARGUMENTS = [(0.3,), (0.7,), (-0.45,), (1.7,)]
POSITIVE_ONLY = {"sqrt", "log", "lg", "lb", "acosh"}


def arguments(entry: functions.Function) -> list[tuple[float, ...]]:
    cases = ARGUMENTS.get(entry.name, DEFAULT_ARGUMENTS)
    if entry.name in POSITIVE_ONLY:
        cases = [args for args in cases if min(args) > 0]
    return cases


CASES = [
    pytest.param(entry, args, id=f"{entry.name}{args}")
    for entry in REGISTRY
    for args in arguments(entry)
]


def close(a: float, b: float, rtol: float = 1e-12) -> bool:
    return abs(a - b) <= rtol * max(1.0, abs(a), abs(b))


@pytest.mark.parametrize(("entry", "args"), CASES)
def test_every_evaluator_agrees(entry, args):
    with mpmath.workdps(50):
        precise = entry.precise(*(mpmath.mpf(a) for a in args))
        assert not isinstance(precise, mpmath.mpc) or precise.imag == 0
        reference = float(mpmath.re(precise))
    assert close(entry.real(*args), reference)
    assert close(complex(entry.complex(*(complex(a) for a in args))).real, reference)
    assert abs(complex(entry.complex(*(complex(a) for a in args))).imag) < 1e-12
    matrices = [np.array([[a, a], [a, a]]) for a in args]
    if entry.array is not None:
        array = np.asarray(entry.array(*matrices), dtype=float)
        expected = 1.0 / 2 if entry.matrix_only else reference  # softmax of a row [a, a]
        if entry.name == "norm":
            expected = 2 * abs(reference)  # of the 2x2 matrix of a: sqrt(4 a^2)
        assert np.allclose(array, expected, rtol=1e-12), array
        with mpmath.workdps(50):
            exact = [np.array([[mpmath.mpf(a)] * 2] * 2, dtype=object) for a in args]
            if entry.precise_array is not None:
                precise_array = entry.precise_array(*exact)
            else:
                precise_array = np.frompyfunc(entry.precise, len(args), 1)(*exact)
            assert all(close(float(x), expected) for x in np.asarray(precise_array).flat)
    form = entry.sympy(sympy)(*(sympy.Rational(str(a)) for a in args))
    if isinstance(form, AppliedUndef):  # an inert name (floor, cbrt, softmax): nothing to value
        assert str(form.func) == entry.name
    else:
        assert close(float(sympy.N(form, 30)), reference)


def test_every_name_reads_as_its_function():
    table = SymbolTable({"x": "x"})
    for entry in REGISTRY:
        least = entry.arity[0]
        call = "(" + ", ".join(["x"] * least) + ")"
        for spelling in (entry.name, *entry.spellings):
            if not spelling.isascii():
                continue
            tree = parse(spelling + call, table)
            assert tree == Call(entry.name, (Sym("x"),) * least), spelling
        for command in entry.latex:
            tree = parse(f"\\{command}" + call, table)
            assert tree == Call(entry.name, (Sym("x"),) * least), command


def test_parser_takes_the_table():
    assert functions.arities() == FUNCTIONS
    assert all(FUNCTION_ALIASES[s] == e.name for e in REGISTRY for s in e.spellings)


def test_no_name_means_two_functions():
    seen: dict[str, str] = {}
    for entry in REGISTRY:
        for name in (entry.name, *entry.spellings):
            assert seen.setdefault(name, entry.name) == entry.name, name


@pytest.mark.parametrize(
    ("name", "args", "value"),
    [
        ("cbrt", (-8.0,), -2.0),
        ("lg", (1000.0,), 3.0),
        ("lb", (8.0,), 3.0),
        ("log", (8.0, 2.0), 3.0),
        ("floor", (-1.5,), -2.0),
        ("ceil", (-1.5,), -1.0),
        ("sech", (0.0,), 1.0),
        ("factorial", (5.0,), 120.0),
        ("sigmoid", (-800.0,), 0.0),
        ("erf", (0.0,), 0.0),
        ("relu", (-2.0,), 0.0),
        ("relu", (2.5,), 2.5),
        ("softplus", (0.0,), math.log(2)),
        ("softplus", (800.0,), 800.0),
        ("log1p", (1e-20,), 1e-20),
        ("expm1", (1e-20,), 1e-20),
        ("sign", (-3.0,), -1.0),
        ("sign", (0.0,), 0.0),
        ("clip", (5.0, 0.0, 1.0), 1.0),
        ("clip", (-5.0, 0.0, 1.0), 0.0),
        ("heaviside", (0.0,), 0.5),
        ("heaviside", (-1.0,), 0.0),
        ("binomial", (5.0, 2.0), 10.0),
        ("binomial", (200.0, 100.0), float(math.comb(200, 100))),
    ],
)
def test_known_values(name, args, value):
    entry = BY_NAME[name]
    assert math.isclose(entry.real(*args), value, abs_tol=1e-300)
    with mpmath.workdps(50):
        assert math.isclose(
            float(entry.precise(*(mpmath.mpf(a) for a in args))), value, abs_tol=1e-300
        )


@pytest.mark.parametrize(("name", "args"), [("sqrt", (-1.0,)), ("log", (-2.0,)), ("asin", (2.0,))])
def test_not_real_is_a_value_error_in_floats_and_complex_at_50_digits(name, args):
    entry = BY_NAME[name]
    with pytest.raises(ValueError):
        entry.real(*args)
    assert isinstance(entry.precise(*(mpmath.mpf(a) for a in args)), mpmath.mpc)
