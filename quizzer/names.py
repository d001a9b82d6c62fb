"""How a symbol's name may be spelled: the rule that ``beta_1`` = ``β₁`` = ``\\beta_{1}``.

A typed name and a declared name match when their *keys* are equal. The key
forgets what people vary without meaning anything different:

- underscores and braces (``beta_1``, ``beta1``, ``beta_{1}``);
- how a Greek letter is written (``β``, ``beta``, ``\\beta``, ``\\varepsilon``);
- Unicode subscript and superscript digits and letters (``β₁``, ``xᵢ``);
- how an accent is written and where (``m̂``, ``\\hat{m}``, ``m_hat``, ``mhat``;
  likewise ``bar`` and ``tilde``): accents are collected and written last,
  so ``\\hat{m}_t`` and ``m_hat_t`` are one name.

Case is kept: ``P`` and ``p``, ``Sigma`` and ``sigma`` are different symbols.
This module is pure and imports nothing heavy: ``validate`` uses it to find
two symbols of a card that one typed name would match.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

#: Greek letters typed directly, by the name a learner would type instead.
GREEK = {
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon", "ϵ": "epsilon",
    "ζ": "zeta", "η": "eta", "θ": "theta", "ϑ": "theta", "ι": "iota", "κ": "kappa",
    "λ": "lambda", "μ": "mu", "µ": "mu", "ν": "nu", "ξ": "xi", "ο": "omicron", "π": "pi",
    "ϖ": "pi", "ρ": "rho", "ϱ": "rho", "σ": "sigma", "ς": "sigma", "τ": "tau",
    "υ": "upsilon", "φ": "phi", "ϕ": "phi", "χ": "chi", "ψ": "psi", "ω": "omega",
    "Γ": "Gamma", "Δ": "Delta", "Θ": "Theta", "Λ": "Lambda", "Ξ": "Xi", "Π": "Pi",
    "Σ": "Sigma", "Υ": "Upsilon", "Φ": "Phi", "Ψ": "Psi", "Ω": "Omega",
}  # fmt: skip
GREEK_NAMES = frozenset(GREEK.values())
#: LaTeX's variant letters read as the plain letter: \varepsilon is epsilon.
VARIANT_LETTERS = {
    "varepsilon": "epsilon", "vartheta": "theta", "varphi": "phi", "varpi": "pi",
    "varrho": "rho", "varsigma": "sigma", "varkappa": "kappa",
}  # fmt: skip

#: Accents, by every way of writing them; the value is the word a key uses.
ACCENT_COMMANDS = {
    "hat": "hat", "widehat": "hat", "bar": "bar", "overline": "bar",
    "tilde": "tilde", "widetilde": "tilde",
}  # fmt: skip
ACCENT_MARKS = {"\u0302": "hat", "\u0304": "bar", "\u0305": "bar", "\u0303": "tilde"}
ACCENT_WORDS = ("hat", "bar", "tilde")

SUBSCRIPTS = "₀₁₂₃₄₅₆₇₈₉ₐₑₒₓₕₖₗₘₙₚₛₜᵢⱼᵤᵥᵣ"
_SUBSCRIPT_PLAIN = "0123456789aeoxhklmnpstijuvr"
_SUBSCRIPT_MAP = str.maketrans(SUBSCRIPTS, _SUBSCRIPT_PLAIN)

_COMMAND = re.compile(r"\\([A-Za-z]+)")


def _plain_letters(text: str) -> tuple[str, list[str]]:
    """The letters of ``text`` with Greek spelled out, and the accents it carries."""
    accents: list[str] = []

    def command(match: re.Match[str]) -> str:
        word = match.group(1)
        if word in ACCENT_COMMANDS:
            accents.append(ACCENT_COMMANDS[word])
            return ""
        if word in ("mathrm", "operatorname", "mathit", "text", "mathbf", "boldsymbol"):
            return ""
        return VARIANT_LETTERS.get(word, word)

    text = _COMMAND.sub(command, text)
    letters: list[str] = []
    for char in unicodedata.normalize("NFD", text):
        if char in ACCENT_MARKS:
            accents.append(ACCENT_MARKS[char])
        elif char in GREEK:
            letters.append(GREEK[char])
        elif char not in "_{} \t":
            letters.append(char)
    return "".join(letters).translate(_SUBSCRIPT_MAP), accents


@lru_cache(maxsize=4096)
def name_key(text: str) -> str:
    """The spelling-free key of a name: equal keys mean the same symbol.

    >>> name_key("beta_{1}") == name_key("β₁") == name_key("\\\\beta1")
    True
    >>> name_key("\\\\hat{m}_t") == name_key("m_hat_t") == name_key("m̂_t")
    True
    """
    text = text.strip().replace("−", "-").replace("–", "-")
    parts = [part for part in re.split(r"_+", text) if part]
    accents: list[str] = []
    pieces: list[str] = []
    for index, part in enumerate(parts):
        bare = part.strip("{}")
        if bare in ACCENT_WORDS and pieces:
            accents.append(bare)
            continue
        letters, marks = _plain_letters(part)
        accents.extend(marks)
        if index == 0:
            # mhat, thetahat, beta1hat: an accent word glued to one letter or a Greek
            # name, digits allowed after it ("rebar" stays "rebar")
            for word in ACCENT_WORDS:
                base = letters[: -len(word)]
                stem = base.rstrip("0123456789")
                if letters.endswith(word) and (len(stem) == 1 or stem in GREEK_NAMES):
                    letters = base
                    accents.append(word)
                    break
        pieces.append(letters)
    key = "".join(pieces)
    return key + "".join(f"^{accent}" for accent in sorted(accents))


#: Characters that make an alias a written notation rather than a name.
_NOTATION_MARKS = frozenset("()[]|,+-*/^=<>' ‖∣·×−√ᵀ⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺")


def is_notation(alias: str) -> bool:
    """True for a written notation (``P(B|A)``, ``E[X]``); False for a name (``β₁``)."""
    return any(char in _NOTATION_MARKS for char in alias)


def notation_key(notation: str) -> str:
    """A notation with its spacing forgotten: ``P(B | A)`` and ``P(B|A)`` are one."""
    return "".join(notation.split())
