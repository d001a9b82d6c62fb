"""Issue 14: symbols spelled as people spell them, notation aliases, defined symbols,
the parser side of the LaTeX vocabulary, and "did you mean" after a typo."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quizzer.answers import CardJudge
from quizzer.answers.checks import answer_problems
from quizzer.answers.judge import symbol_table
from quizzer.answers.symbolic import plain, to_sympy
from quizzer.answers.syntax import AnswerError, Sym, UnknownCommand, UnknownSymbol, parse
from quizzer.cards.model import Card, card_problems
from quizzer.names import is_notation, name_key


def make_card(answer: str, symbols: dict, *, blank: str = "b", **extra) -> Card:
    return Card.model_validate(
        {
            "id": "notation",
            "title": "Notation",
            "prompt": f"{{{{{blank}}}}}",
            "symbols": symbols,
            "blanks": {blank: {"answer": answer, **extra}},
        }
    )


def judged(card: Card, text: str):
    return CardJudge(card).judge("b", text)


# -- item 1: names ----------------------------------------------------------------

SAME_NAMES = [
    ("beta_1", "beta1"),
    ("beta_1", "beta_{1}"),
    ("beta_1", "β₁"),
    ("beta_1", "β_1"),
    ("beta_1", "β1"),
    ("beta_1", r"\beta_1"),
    ("beta_1", r"\beta_{1}"),
    ("beta_1", r"\beta1"),
    ("beta", "β"),
    ("beta", r"\beta"),
    ("epsilon", "ε"),
    ("epsilon", "ϵ"),
    ("epsilon", r"\varepsilon"),
    ("epsilon", r"\epsilon"),
    ("theta", r"\vartheta"),
    ("phi", r"\varphi"),
    ("Delta", "Δ"),
    ("Delta", r"\Delta"),
    ("eta_max", r"\eta_{max}"),
    ("eta_max", "η_max"),
    ("eta_max", "etamax"),
    ("m_hat", "m̂"),
    ("m_hat", r"\hat{m}"),
    ("m_hat", r"\widehat{m}"),
    ("m_hat", "mhat"),
    ("m_hat", "m_{hat}"),
    ("m_hat_t", r"\hat{m}_t"),
    ("m_hat_t", "m̂_t"),
    ("m_hat_t", r"\hat{m_t}"),
    ("m_hat_t", "m_t_hat"),
    ("x_bar", "x̄"),
    ("x_bar", r"\bar{x}"),
    ("x_bar", r"\overline{x}"),
    ("x_bar", "xbar"),
    ("y_tilde", "ỹ"),
    ("y_tilde", r"\tilde{y}"),
    ("y_tilde", "ytilde"),
    ("theta_hat", r"\hat{\theta}"),
    ("theta_hat", "θ̂"),
    ("sigma_sq", "σ_{sq}"),
    ("x_i", "xᵢ"),
    ("W_2", "W₂"),
    ("d_model", "d_{model}"),
    ("d_model", "dmodel"),
]


@pytest.mark.parametrize(("declared", "typed"), SAME_NAMES)
def test_one_name_many_spellings(declared, typed):
    assert name_key(declared) == name_key(typed)


@pytest.mark.parametrize(
    ("a", "b"),
    [("P", "p"), ("Sigma", "sigma"), ("m", "m_hat"), ("x_bar", "x_hat"), ("beta_1", "beta_2")],
)
def test_different_names_stay_different(a, b):
    assert name_key(a) != name_key(b)


NAMES_CARD = make_card(
    r"\frac{(\mu_1-\mu_2)^2}{2\sigma^2}",
    {"mu_1": {}, "mu_2": {}, "sigma": {"positive": True}},
)


@pytest.mark.parametrize(
    "text",
    [
        r"\frac{(\mu_1-\mu_2)^2}{2\sigma^2}",
        "(mu_1 - mu_2)^2 / (2 sigma^2)",
        "(μ₁ - μ₂)²/(2σ²)",
        "(mu1-mu2)**2/(2*sigma**2)",
        r"\dfrac{(\mu_{1}-\mu_{2})^{2}}{2\sigma^{2}}",
        r"\left(\mu_1 - \mu_2\right)^2 / \left(2 \sigma^2\right)",
    ],
)
def test_names_in_a_whole_answer(text):
    assert judged(NAMES_CARD, text).correct


ADAM = make_card(
    r"\hat{m}_t / (\sqrt{\hat{v}_t} + \epsilon)",
    {"m_hat_t": {}, "v_hat_t": {"positive": True}, "epsilon": {"positive": True}},
)


@pytest.mark.parametrize(
    "text",
    [
        "m_hat_t / (sqrt(v_hat_t) + epsilon)",
        "m̂_t/(√v̂_t + ε)",
        r"\frac{\hat{m}_t}{\sqrt{\hat{v}_t} + \varepsilon}",
        "mhat_t / (sqrt(vhat_t) + ϵ)",
    ],
)
def test_adam_update_in_every_spelling(text):
    assert judged(ADAM, text).correct


def test_beta_power_card():
    card = make_card("beta_1^t", {"beta_1": {"range": [0, 1]}, "t": {"positive": True}})
    for text in (r"\beta_1^t", "β₁^t", "beta1^t", "beta_{1}^{t}", r"\beta_{1}^{t}"):
        assert judged(card, text).correct, text


@pytest.mark.parametrize(
    ("symbols", "message"),
    [
        ({"beta_1": {}, "beta1": {}}, "'beta1' and 'beta_1' (symbol 'beta_1') are one name"),
        ({"m_hat": {}, "mhat": {}}, "'mhat' and 'm_hat' (symbol 'm_hat') are one name"),
        ({"x": {"aliases": ["k"]}, "k": {}}, "alias 'k' is already used by symbol 'k'"),
        ({"x": {"aliases": ["β₁"]}, "beta_1": {}}, "'β₁' and 'beta_1'"),
        ({"a": {"aliases": ["P(B|A)"]}, "b": {"aliases": ["P(B | A)"]}}, "'P(B | A)' and"),
    ],
)
def test_clashing_spellings_are_a_validate_error(symbols, message):
    card = make_card("1", symbols)
    messages = [problem.message for problem in card_problems(card)]
    assert any(m.startswith(message) for m in messages), messages


def test_clash_is_located_at_the_alias():
    card = make_card("1", {"beta_1": {}, "x": {"aliases": ["y", "beta1"]}})
    [problem] = [p for p in card_problems(card) if "one name" in p.message]
    assert problem.path == ("symbols", "x", "aliases", 1)


def test_distinct_spellings_are_not_a_clash():
    card = make_card("1", {"P": {}, "p": {}, "m": {}, "m_hat": {}, "Sigma": {}, "sigma": {}})
    assert card_problems(card) == []


# -- item 2: notation aliases -----------------------------------------------------

BAYES = make_card(
    "P_B_A P_A / P_B",
    {
        "P_B_A": {"range": [0, 1], "aliases": ["P(B|A)"]},
        "P_A": {"range": [0, 1], "aliases": ["P(A)"]},
        "P_B": {"range": [0, 1], "aliases": ["P(B)"]},
    },
)
VARIANCE = make_card(
    "var_x + var_y + 2 cov_xy",
    {
        "var_x": {"positive": True, "aliases": ["Var(X)", "Var[X]"]},
        "var_y": {"positive": True, "aliases": ["Var(Y)"]},
        "cov_xy": {"aliases": ["Cov(X,Y)", "Cov(X, Y)"]},
    },
)
EXPECTATION = make_card("E_x^2", {"E_x": {"aliases": ["E[X]"]}})
LIKELIHOOD = make_card("(y - f)^2", {"y": {}, "f": {"aliases": ["f(x)"]}})
KL = make_card(
    "p log(p/q)",
    {"p": {"positive": True, "aliases": ["p(x)"]}, "q": {"positive": True, "aliases": ["q(x)"]}},
)


@pytest.mark.parametrize(
    ("card", "text", "correct"),
    [
        (BAYES, "P(B|A)P(A)/P(B)", True),
        (BAYES, "P(B | A) P(A) / P(B)", True),
        (BAYES, "P(B|A) * P(A) / P(B)", True),
        (BAYES, r"\frac{P(B|A)P(A)}{P(B)}", True),
        (BAYES, "P(B∣A)P(A)/P(B)", True),
        (BAYES, r"P(B \mid A) P(A) / P(B)", True),
        (BAYES, "P_B_A P_A / P_B", True),
        (BAYES, "P(B|A)/P(B)", False),
        (BAYES, "P(B|A)P(B)/P(A)", False),
        (VARIANCE, "Var(X) + Var(Y) + 2*Cov(X,Y)", True),
        (VARIANCE, "Var(X)+Var(Y)+2Cov(X, Y)", True),
        (VARIANCE, "Var[X] + Var(Y) + 2 Cov( X , Y )", True),
        (VARIANCE, "Var(X) + Var(Y)", False),
        (EXPECTATION, "E[X]^2", True),
        (EXPECTATION, "E[ X ]²", True),
        (EXPECTATION, "E_x E[X]", True),
        (LIKELIHOOD, "(y - f(x))^2", True),
        (LIKELIHOOD, "(f(x) - y)²", True),
        (LIKELIHOOD, "y - f(x)", False),
        (KL, "p(x) log(p(x)/q(x))", True),
        (KL, "p(x) (log p(x) - log q(x))", True),
        (KL, "-p(x) log(q(x)/p(x))", True),
        (KL, "q(x) log(q(x)/p(x))", False),
    ],
)
def test_notation_aliases(card, text, correct):
    verdict = judged(card, text)
    assert verdict.correct is correct, verdict


@pytest.mark.parametrize(
    ("alias", "notation"),
    [
        ("P(B|A)", True),
        ("Var(X)", True),
        ("E[X]", True),
        ("f(x)", True),
        ("dk", False),
        ("β₁", False),
        (r"\hat{m}", False),
        ("m_hat", False),
    ],
)
def test_aliases_that_are_notations(alias, notation):
    assert is_notation(alias) is notation


def test_a_notation_that_does_not_read_is_a_validate_error():
    card = make_card("x", {"x": {"aliases": ["Var(X) # 2"]}})
    [problem] = symbol_or_answer_problems(card)
    assert problem.path == ("symbols", "x", "aliases", 0)
    assert "notation does not read: unexpected '#' at column 8" in problem.message


def symbol_or_answer_problems(card: Card):
    return answer_problems(card)


def test_notation_alias_in_the_schema():
    from quizzer.cards.model import card_json_schema

    schema = card_json_schema()
    aliases = schema["$defs"]["Symbol"]["properties"]["aliases"]
    assert "P(B|A)" in aliases["description"]


# -- item 3: defined symbols ----------------------------------------------------------

LOGISTIC = make_card("p - y", {"p": {"value": "sigmoid(z)"}, "z": {}, "y": {"range": [0, 1]}})


@pytest.mark.parametrize(
    ("card", "text", "correct"),
    [
        (LOGISTIC, "p - y", True),
        (LOGISTIC, "sigmoid(z) - y", True),
        (LOGISTIC, "σ(z) - y", True),
        (LOGISTIC, "1/(1+exp(-z)) - y", True),
        (LOGISTIC, r"\frac{1}{1+e^{-z}} - y", True),
        (LOGISTIC, "y - p", False),
        (LOGISTIC, "p - z", False),
    ],
)
def test_defined_symbols(card, text, correct):
    assert judged(card, text).correct is correct


def test_definitions_chain():
    card = make_card("h", {"h": {"value": "2 g"}, "g": {"value": "x + 1"}, "x": {}}, examples=[])
    assert judged(card, "2x + 2").correct
    assert judged(card, "2 g").correct
    assert not judged(card, "g").correct


def test_the_answer_may_use_the_definition_too():
    card = make_card("sigmoid(z) - y", {"p": {"value": "sigmoid(z)"}, "z": {}, "y": {}})
    assert judged(card, "p - y").correct


@pytest.mark.parametrize(
    ("symbols", "message"),
    [
        ({"p": {"value": "q + 1"}, "x": {}}, "definition does not read: unknown symbol 'q'"),
        ({"p": {"value": "x +"}, "x": {}}, "definition does not read: answer ends too early"),
        ({"p": {"value": "p + x"}, "x": {}}, "definitions go round in a circle: p -> p"),
        (
            {"p": {"value": "q"}, "q": {"value": "p"}},
            "definitions go round in a circle: p -> q -> p",
        ),
    ],
)
def test_bad_definitions_are_validate_errors(symbols, message):
    card = make_card("1", symbols)
    problems = [p for p in answer_problems(card) if p.path[0] == "symbols"]
    assert problems and problems[0].message.startswith(message), problems
    assert problems[0].path[-1] == "value"


def test_export_keeps_the_defined_symbol():
    table = symbol_table(LOGISTIC)
    assert plain(to_sympy(parse("p - y", table, expand=False), table)) == "p - y"


# -- item 4: the parser's side of the vocabulary ------------------------------------

GENERIC = make_card("x", {"x": {"positive": True}, "K": {"positive": True}, "y": {}})
TABLE = symbol_table(GENERIC)


def read(text: str) -> str:
    return plain(to_sympy(parse(text, TABLE), TABLE))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (r"\frac12", "1/2"),
        (r"\frac13", "1/3"),
        (r"\frac3{3}", "1"),
        (r"\frac1{x}", "1/x"),
        (r"\frac{1}2", "1/2"),
        (r"\frac x2", "x/2"),
        (r"\frac\pi2", "pi/2"),
        (r"\dfrac{1}{x}", "1/x"),
        (r"\tfrac{x}{2}", "x/2"),
        (r"\cfrac{1}{1+x}", "1/(x + 1)"),
        (r"\dfrac12 x", "x/2"),
        ("½", "1/2"),
        ("½x", "x/2"),
        ("¾", "3/4"),
        ("⅓ x", "x/3"),
        ("50 %", "1/2"),
        ("50%", "1/2"),
        ("x %", "x/100"),
        ("x @ K", "K*x"),
        ("tanh^2(x)", "tanh(x)**2"),
        ("tanh²(x)", "tanh(x)**2"),
        (r"\tanh^2 x", "tanh(x)**2"),
        (r"\tanh^{2}(x)", "tanh(x)**2"),
        ("sin²x", "sin(x)**2"),
        ("1 - tanh^2(x)", "1 - tanh(x)**2"),
        ("cos^2 x + sin^2 x", "sin(x)**2 + cos(x)**2"),
        ("log_2(x)", "log(x)/log(2)"),
        ("log_{2}(x)", "log(x)/log(2)"),
        (r"\log_2 x", "log(x)/log(2)"),
        (r"\log_{10} x", "log(x)/log(10)"),
        ("log(x, 2)", "log(x)/log(2)"),
        (r"\log_e K", "log(K)"),
        ("log_e(K)", "log(K)"),
        ("ln K", "log(K)"),
        (r"\left| y \right|", "Abs(y)"),
        (r"\left|y\right|", "Abs(y)"),
        (r"\mathrm{tanh}(x)", "tanh(x)"),
        (r"\operatorname{tanh} x", "tanh(x)"),
        (r"\operatorname{sigmoid}(y)", "1/(1 + exp(-y))"),
        (r"x \, K", "K*x"),
        (r"x \; K", "K*x"),
        (r"x \quad K", "K*x"),
        (r"K^\top", "K"),
        (r"\sqrt{x}", "sqrt(x)"),
    ],
)
def test_vocabulary(text, expected):
    assert read(text) == expected


def test_top_transposes_a_matrix():
    card = make_card("A^T", {"A": {"matrix": True}})
    table = symbol_table(card)
    assert plain(to_sympy(parse(r"A^\top", table), table)) == "A^T"


# -- item 6 (did you mean) and carets -----------------------------------------------


@pytest.mark.parametrize(
    ("text", "message", "column"),
    [
        (r"\Delat", r"unknown LaTeX command '\Delat' at column 1; did you mean '\Delta'?", 1),
        (r"x + \alhpa", r"did you mean '\alpha'?", 5),
        (r"\sqtr{x}", r"did you mean '\sqrt'?", 1),
        (r"\farc{1}{x}", r"did you mean '\frac'?", 1),
        ("sigmiod(x)", "did you mean 'sigmoid'?", 1),
        ("2 * sqrtt(x)", "did you mean 'sqrt'?", 5),
        ("tahn(x)", "did you mean 'tanh'?", 1),
        ("xK + Kapa", "unknown symbol 'Kapa'", 6),
    ],
)
def test_did_you_mean(text, message, column):
    with pytest.raises(AnswerError) as caught:
        parse(text, TABLE)
    assert message in caught.value.message
    assert caught.value.column == column


def test_no_guess_for_short_or_distant_names():
    with pytest.raises(UnknownSymbol) as caught:
        parse("qq + zzzzzz", TABLE)
    assert caught.value.suggestion is None
    with pytest.raises(UnknownCommand) as command:
        parse(r"\zzzz", TABLE)
    assert command.value.suggestion is None


def test_did_you_mean_reaches_the_verdict_with_its_column():
    verdict = judged(DELTA, r"\Delat / T")
    assert verdict.status == "unreadable"
    assert verdict.column == 1
    assert "did you mean '\\Delta'?" in (verdict.feedback or "")


DELTA = make_card("Delta / T", {"Delta": {}, "T": {"positive": True}})


@pytest.mark.parametrize("text", ["Δ/T", r"\Delta / T", r"\frac{\Delta}{T}", "Delta/T"])
def test_softmax_temperature_gap(text):
    assert judged(DELTA, text).correct


@given(st.text(alphabet="βΔε₁₂̂_{}\\hatbrmxyz ^()+-", max_size=30))
def test_name_spellings_never_crash(text):
    with contextlib.suppress(AnswerError):
        parse(text, TABLE)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("sech(x)^2", "sech(x)**2"),
        ("sech^2 x", "sech(x)**2"),
        (r"\operatorname{sech}^2(x)", "sech(x)**2"),
        (r"\sech^2 x", "sech(x)**2"),
        (r"\cosh^{2} x", "cosh(x)**2"),
        ("sin^{-1}(x)", "asin(x)"),
        ("tanh^{-1}(x)", "atanh(x)"),
        (r"\arcsin x", "asin(x)"),
        ("arctan(x)", "atan(x)"),
        ("lg(x)", "log(x)/log(10)"),
        ("ceil(x)", "ceil(x)"),
        ("coth x", "coth(x)"),
    ],
)
def test_registry_functions_through_the_parser(text, expected):
    assert read(text) == expected


TANH_DERIVATIVE = make_card("1 - tanh(x)^2", {"x": {}})


@pytest.mark.parametrize(
    ("text", "correct"),
    [
        ("sech(x)^2", True),
        ("1/cosh(x)^2", True),
        ("1 - tanh^2(x)", True),
        ("1 - tanh²(x)", True),
        (r"1 - \tanh^2 x", True),
        (r"\operatorname{sech}^2 x", True),
        ("sech(x)", False),
        ("1 - tanh(x)", False),
    ],
)
def test_tanh_derivative_in_every_notation(text, correct):
    assert judged(TANH_DERIVATIVE, text).correct is correct


def test_readme_function_list_is_generated_from_the_registry():
    import importlib.util
    from pathlib import Path

    from quizzer.answers.functions import REGISTRY

    repo = Path(__file__).resolve().parent.parent
    spec = importlib.util.spec_from_file_location(
        "readme_reference", repo / "scripts" / "readme_reference.py"
    )
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    table = script.function_table()
    assert table in (repo / "README.md").read_text(encoding="utf-8")
    for entry in REGISTRY:
        assert f"| `{entry.name}` |" in table


@pytest.mark.parametrize(
    ("forbid", "text", "correct"),
    [
        (["sigmoid"], "p - y", True),  # the definition's sigmoid is not the learner's
        (["sigmoid"], "sigmoid(z) - y", False),
        (["p"], "p - y", False),
        (["p"], "sigmoid(z) - y", True),
    ],
)
def test_forbid_sees_what_was_written_not_the_definition(forbid, text, correct):
    card = make_card("p - y", {"p": {"value": "sigmoid(z)"}, "z": {}, "y": {}}, forbid=forbid)
    assert judged(card, text).correct is correct


PREVIOUS_STEP = make_card(
    "theta_prev - alpha g", {"theta_prev": {"aliases": ["θ_{t−1}"]}, "alpha": {}, "g": {}}
)


@pytest.mark.parametrize(
    "text",
    ["θ_{t−1} - α g", "theta_{t-1} - alpha g", r"\theta_{t - 1} - \alpha g", "theta_prev - α*g"],
)
def test_a_subscript_with_an_operator_is_a_notation(text):
    assert judged(PREVIOUS_STEP, text).correct


@pytest.mark.parametrize(
    ("name", "key"), [("what", "w^hat"), ("rebar", "rebar"), ("thetahat", "theta^hat")]
)
def test_a_glued_accent_word_counts_after_one_letter_or_a_greek_name(name, key):
    assert name_key(name) == key


NORM = make_card("2/w_norm", {"w_norm": {"positive": True, "aliases": ["‖w‖"]}})


@pytest.mark.parametrize(("text", "correct"), [("2/‖w‖", True), ("2/||w||", True), ("2‖w‖", False)])
def test_a_norm_notation(text, correct):
    assert judged(NORM, text).correct is correct


def test_a_defined_symbol_reads_back_as_typed():
    verdict = judged(LOGISTIC, "p - y")
    assert verdict.correct and verdict.interpreted == "p - y"
    assert judged(LOGISTIC, "sigmoid(z) - y").interpreted == "-y + 1/(1 + exp(-z))"


@pytest.mark.parametrize(
    ("text", "expected"),
    [("eˣ", "exp(x)"), ("Kˣ", "K**x"), ("yˣ", "y**x"), ("1 - yˣ", "1 - y**x")],
)
def test_raised_letters_are_powers(text, expected):
    assert read(text) == expected


_GREEK_SPELLINGS = {"alpha": "α", "beta": "β", "eta": "η", "theta": "θ", "sigma": "σ", "mu": "μ"}
_SUBSCRIPT_DIGITS = "₀₁₂₃₄₅₆₇₈₉"


@given(
    st.sampled_from(sorted(_GREEK_SPELLINGS)),
    st.integers(min_value=0, max_value=9),
    st.sampled_from(["", "hat", "bar"]),
)
def test_every_spelling_of_a_greek_name_with_a_subscript(letter, digit, accent):
    declared = f"{letter}_{digit}" + (f"_{accent}" if accent else "")
    card = make_card("1", {declared: {}})
    table = symbol_table(card)
    greek = _GREEK_SPELLINGS[letter]
    mark = {"": "", "hat": "\u0302", "bar": "\u0304"}[accent]
    latex = f"\\{letter}_{{{digit}}}" if not accent else f"\\{accent}{{\\{letter}}}_{{{digit}}}"
    spellings = [
        declared,
        f"{letter}{digit}{accent}",
        f"{greek}{mark}{_SUBSCRIPT_DIGITS[digit]}",
        f"{greek}{mark}_{digit}",
        latex,
    ]
    for spelling in spellings:
        assert parse(spelling, table) == Sym(declared), spelling


_PIECES = [
    "\\frac", "\\dfrac", "\\hat", "\\bar", "\\log", "_", "^", "{", "}", "(", ")", "|", "‖",
    "\\left", "\\right", "\\mathrm", "\\operatorname", "\\beta", "\\varepsilon", "β", "₁",
    "\u0302", "ᵗ", "²", "½", "%", "@", "x", "K", "y", "1", "2", "12", "tanh", "log", "sin",
    "-", "+", "*", "/", " ", ",", "P(B|A)", "Var(X)", "\\,", "\\top", "e", "sigmoid",
]  # fmt: skip
NOTATION_TABLE = symbol_table(
    make_card("x", {"x": {}, "K": {}, "y": {}, "P_B_A": {"aliases": ["P(B|A)"]}})
)


@given(st.lists(st.sampled_from(_PIECES), max_size=25))
def test_any_mix_of_notation_is_read_or_refused_with_a_column(pieces):
    text = "".join(pieces)
    try:
        parse(text, NOTATION_TABLE)
    except AnswerError as error:
        assert error.message
        assert error.column is None or 1 <= error.column <= len(text) + 1


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("γV", "V*gamma"),
        ("λI", "I*lambda"),
        ("β1", "beta1"),
        ("βhat", "beta_hat"),
        ("ρσ²", "rho*s2"),
    ],
)
def test_a_greek_letter_glues_digits_and_accents_but_not_other_names(text, expected):
    card = make_card(
        "1",
        {
            "gamma": {}, "V": {}, "lambda": {}, "I": {}, "beta1": {}, "beta_hat": {}, "rho": {},
            "s2": {"aliases": ["σ²"]},
        },
    )  # fmt: skip
    table = symbol_table(card)
    assert plain(to_sympy(parse(text, table), table)) == expected


TD = make_card(
    "r + gamma V_next - V_s",
    {
        "r": {}, "gamma": {"range": [0, 1]}, "V_s": {"aliases": ["V(s)", "V"]},
        "V_next": {"aliases": ["V(s')"]},
    },
)  # fmt: skip


@pytest.mark.parametrize("text", ["r + γV(s') − V(s)", "r + γ V(s') - V", "r+gamma*V(s')-V(s)"])
def test_td_error_in_the_prompt_notation(text):
    assert judged(TD, text).correct


DIFFUSION = make_card(
    "sqrt(abar)*x_0", {"abar": {"range": [0, 1], "aliases": ["alpha_bar", "ᾱ_t"]}, "x_0": {}}
)


@pytest.mark.parametrize(
    "text", ["√ᾱ_t x_0", "√ᾱ x₀", r"\sqrt{\bar{\alpha}} x_0", "sqrt(alpha_bar) x0"]
)
def test_a_precomposed_accent_is_a_letter_with_its_accent(text):
    assert judged(DIFFUSION, text).correct
