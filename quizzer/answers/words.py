"""Word answers: forgive the wording, never the meaning.

Two phrases match when they are the same after :func:`normalise`:

- case, punctuation and the articles *a*, *an*, *the* do not count;
- a plural is its singular (``running stats`` = ``running stat``);
- number words are numbers (``two`` = ``2``) and a quantity is its value in
  a base unit, so ``2GiB``, ``2 gibibytes`` and ``2048 MiB`` are one answer;
  ``2 GB`` is not (10^9 bytes against 2^30: a number typed in GB is judged
  by value, and ``2.15 GB`` is right for 2 GiB as a correct rounding);
- words of one synonym group are one word (``dim`` = ``dimension``; the
  built-in groups plus the card's own ``synonyms``);
- spacing inside a word does not count (``layernorm`` = ``layer norm``).

One typo in one long word (five letters or more) is forgiven, but never in a
number, a unit, or a word that belongs to another accepted or known-wrong
answer: ``two MiB`` is not ``two GiB``, and ``mean`` is not ``median``'s typo
when ``median`` is a wrong answer the card knows.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

ARTICLES = frozenset({"a", "an", "the"})

NUMBER_WORDS: dict[str, int | Fraction] = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "sixteen": 16,
    "twenty": 20, "thirty": 30, "hundred": 100, "thousand": 1000, "half": Fraction(1, 2),
}  # fmt: skip

#: Units by every spelling, as (base unit, size in that base). Decimal and binary
#: byte prefixes differ (1 GB = 10^9 bytes, 1 GiB = 2^30): taking them as one
#: accepted 35 GiB for 35 GB, 7% too much.
_UNIT_SPELLINGS: dict[tuple[str, int | Fraction], tuple[str, ...]] = {
    ("byte", 1): ("b", "byte", "bytes"),
    ("byte", 10**3): ("kb", "kilobyte", "kilobytes"),
    ("byte", 10**6): ("mb", "megabyte", "megabytes"),
    ("byte", 10**9): ("gb", "gigabyte", "gigabytes"),
    ("byte", 10**12): ("tb", "terabyte", "terabytes"),
    ("byte", 2**10): ("kib", "kibibyte", "kibibytes"),
    ("byte", 2**20): ("mib", "mebibyte", "mebibytes"),
    ("byte", 2**30): ("gib", "gibibyte", "gibibytes"),
    ("byte", 2**40): ("tib", "tebibyte", "tebibytes"),
    ("bit", 1): ("bit", "bits"),
    ("second", 1): ("s", "sec", "secs", "second", "seconds"),
    ("second", Fraction(1, 1000)): ("ms", "millisecond", "milliseconds", "msec"),
    ("second", Fraction(1, 10**6)): ("us", "µs", "μs", "microsecond", "microseconds"),
    ("second", Fraction(1, 10**9)): ("ns", "nanosecond", "nanoseconds"),
    ("second", 60): ("min", "mins", "minute", "minutes"),
    ("second", 3600): ("h", "hr", "hrs", "hour", "hours"),
    # A percentage is a number, not a word to drop: 30% is 0.3, never 30, and ‰ is not %.
    ("percent", 1): ("%", "percent"),
    ("percent", Fraction(1, 10)): ("‰", "permille"),
    ("decibel", 1): ("db", "decibel", "decibels"),
}
#: The size of the plain number 1 in each base: 0.3 is 30 percent.
UNITY: dict[str, int | Fraction] = {"percent": 100}
UNITS: dict[str, tuple[str, int | Fraction]] = {
    spelling: unit for unit, spellings in _UNIT_SPELLINGS.items() for spelling in spellings
}

#: Words an ML interviewer hears as the same, whatever the card.
BUILTIN_SYNONYMS: tuple[tuple[str, ...], ...] = (
    ("dimension", "dim", "dimensionality", "axis"),
    ("statistic", "stat"),
    ("variance", "var"),
    ("standard deviation", "std", "stdev", "std dev"),
    ("normalization", "normalisation", "norm"),
    ("regularization", "regularisation"),
    ("parameter", "param"),
    ("probability", "prob"),
    ("matrix", "matrices"),
    ("index", "indices"),
    ("vertex", "vertices"),
)

_IRREGULAR_SINGULAR = {
    "axes": "axis", "indices": "index", "matrices": "matrix", "biases": "bias",
    "vertices": "vertex", "data": "datum",
}  # fmt: skip
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)")


def _singular(word: str) -> str:
    """A plural's singular, by the common English rules (stable on both forms)."""
    if word in _IRREGULAR_SINGULAR:
        return _IRREGULAR_SINGULAR[word]
    if len(word) <= 3 or word in UNITS or not word.isalpha():
        return word
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


_ARTICLE_AT_START = re.compile(r"^(the|a|an)\s+")


def normalise_words(text: str) -> str:
    """The first step of every word comparison: Unicode forms, case, spacing, a
    leading article and trailing punctuation do not matter (``The Value Matrix.``
    is ``value matrix``). A blank's fingerprint is taken on this form."""
    words = unicodedata.normalize("NFKC", text).casefold()
    words = re.sub(r"\s+", " ", words).strip()
    words = words.rstrip(".!?;:, ").lstrip()
    return _ARTICLE_AT_START.sub("", words)


#: Relations by every spelling, longest first; each becomes one symbol, so that
#: ``at least 2``, ``>= 2`` and ``≥ 2`` are one answer. The negated spellings
#: come first: ``not less than`` is ``≥``, not a negated ``<``.
_RELATION_SPELLINGS: tuple[tuple[str, str], ...] = (
    (r"(?:no|not) (?:less|fewer|smaller) than", "≥"),
    (r"(?:no|not) (?:more|greater|larger|bigger) than", "≤"),
    (r"(?:greater|more|larger|bigger) than or equal to|greater or equal to|at least", "≥"),
    (r"(?:less|fewer|smaller) than or equal to|less or equal to|at most", "≤"),
    (r"(?:greater|more|larger|bigger) than", ">"),
    (r"(?:less|fewer|smaller) than", "<"),
    (r"(?:is )?not equal to|differs from", "≠"),
    (r"(?:is )?equal to|equals", "="),
)
_RELATION_WORDS = [
    (re.compile(rf"\b(?:{spelled})\b"), symbol) for spelled, symbol in _RELATION_SPELLINGS
]
_RELATION_CUES = ("than", "least", "most", "equal", "differs")
_RELATION_SIGNS = (
    (">=", "≥"), ("=>", "≥"), ("⩾", "≥"), ("<=", "≤"), ("=<", "≤"), ("⩽", "≤"),
    ("!=", "≠"), ("/=", "≠"), ("==", "="),
)  # fmt: skip
RELATIONS = frozenset("≥≤≠<>=")
#: Signs and symbols that change a number's meaning: never dropped (issue 22).
_KEPT = "%‰+\\-" + "".join(RELATIONS)
#: A minus, however typed: U+2212, the dashes people type for it.
_MINUS = str.maketrans({"\u2212": "-", "\u2013": "-", "\u2012": "-", "\ufe63": "-", "\uff0d": "-"})


def _words(text: str) -> list[str]:
    """Lower-case words, digits split from letters (``2GiB`` -> ``2 gib``).

    A sign stays on its number (``-6``), ``%``, ``‰``, a relation and a
    standalone ``+`` or ``-`` are words of their own; a hyphen inside a word
    (``L2-norm``, ``one-hot``) only separates.
    """
    text = normalise_words(text).translate(_MINUS).replace("&", " and ")
    text = text.replace("’", "'").replace("cannot", "can not").replace("can't", "can not")
    text = re.sub(r"n't\b", " not", text.replace("won't", "will not"))
    text = re.sub(r"\bper ?cent\b|\bpct\b", " % ", text)
    text = re.sub(r"\bper ?mille\b", " ‰ ", text)
    for typed, symbol in _RELATION_SIGNS:
        text = text.replace(typed, f" {symbol} ")
    if any(cue in text for cue in _RELATION_CUES):  # most answers have none: skip 8 regexes
        for spelled, symbol in _RELATION_WORDS:
            text = spelled.sub(f" {symbol} ", text)
    text = re.sub(r"(?<=\w)-(?=\w)", " ", text)  # a hyphen inside a word
    text = re.sub(r"([%‰≥≤≠<>=])", r" \1 ", text)
    text = re.sub(r"(\d)([^\d\s.,+\-])", r"\1 \2", text)
    text = re.sub(r"(?<!\d)[.,]|[.,](?!\d)", " ", text)  # punctuation, not 0.5 or 1,024
    text = re.sub(rf"[^\w\s.µμ{_KEPT}]", " ", text)
    text = re.sub(r"([+\-])(?!\d|\.\d)", r" \1 ", text)  # a sign not on a number stands alone
    text = re.sub(r"(?<=\d)([+\-])", r" \1 ", text)  # 2-3 is two numbers, not 2 and -3
    return [word.replace(",", "") for word in text.split()]


def _synonym_table(groups: Iterable[Sequence[str]]) -> dict[tuple[str, ...], tuple[str, ...]]:
    """Each member of each group, as words, mapped to its group's first member."""
    table: dict[tuple[str, ...], tuple[str, ...]] = {}
    for group in groups:
        forms = [tuple(_singular(w) for w in _words(member)) for member in group]
        forms = [form for form in forms if form]
        for form in forms[1:]:
            table.setdefault(form, forms[0])
    return table


@lru_cache(maxsize=1)
def _builtin_table() -> dict[tuple[str, ...], tuple[str, ...]]:
    """The built-in groups' table, built once: every blank's judge and every concept
    matcher reads the same one (building it took about 9 ms each time)."""
    return _synonym_table(BUILTIN_SYNONYMS)


@dataclass(frozen=True)
class Phrase:
    """A phrase after normalising: its words, and which of them are numbers or units."""

    words: tuple[str, ...]
    #: The words before synonyms, run together: ``layernorm`` is ``layer norm``.
    squashed: str = field(default="", compare=False)


class Vocabulary:
    """How one card's word answers are normalised: the built-in and card synonyms."""

    def __init__(self, synonyms: Iterable[Sequence[str]] = ()) -> None:
        self.builtin = _builtin_table()
        # The card's groups are read through the built-in ones, so that a card's
        # "trailing dimension" also catches "trailing dim".
        self.card = {
            tuple(self._synonyms(list(form), self.builtin)): tuple(
                self._synonyms(list(canonical), self.builtin)
            )
            for form, canonical in _synonym_table(synonyms).items()
        }

    def normalise(self, text: str) -> Phrase:
        """The phrase ``text`` says, in canonical words."""
        words = [word for word in _words(text) if word not in ARTICLES]
        words = [_singular(word) for word in words]
        canonical = self._synonyms(self._synonyms(words, self.builtin), self.card)
        return Phrase(tuple(self._quantities(canonical)), "".join(words))

    @staticmethod
    def _synonyms(words: list[str], table: dict[tuple[str, ...], tuple[str, ...]]) -> list[str]:
        longest = max((len(form) for form in table), default=1)
        result: list[str] = []
        i = 0
        while i < len(words):
            for size in range(min(longest, len(words) - i), 0, -1):
                form = tuple(words[i : i + size])
                if form in table:
                    result.extend(table[form])
                    i += size
                    break
            else:
                result.append(words[i])
                i += 1
        return result

    def _quantities(self, words: list[str]) -> list[str]:
        """Numbers as exact values and ``number unit`` as a value in the base unit."""
        words = _signed(words)
        result: list[str] = []
        i = 0
        while i < len(words):
            value = _number(words[i])
            if value is None:
                result.append(words[i])
                i += 1
                continue
            following = words[i + 1] if i + 1 < len(words) else None
            if following in UNITS:
                base, size = UNITS[following]
                result.extend((str(value * size), base))
                i += 2
            else:
                result.append(str(value))
                i += 1
        return result


_NEGATIVE = frozenset({"-", "minus", "negative"})


def _signed(words: list[str]) -> list[str]:
    """``- 6``, ``minus six`` and ``negative 6`` as the one number ``-6``; ``+ 6`` as ``6``."""
    result: list[str] = []
    i = 0
    while i < len(words):
        value = _number(words[i + 1]) if i + 1 < len(words) else None
        starts = not result or _number(result[-1]) is None  # 2 - 3 stays a difference
        if value is not None and starts and (words[i] in _NEGATIVE or words[i] == "+"):
            result.append(str(-value if words[i] in _NEGATIVE else value))
            i += 2
        else:
            result.append(words[i])
            i += 1
    return result


def _number(word: str) -> Fraction | None:
    if word in NUMBER_WORDS:
        return Fraction(NUMBER_WORDS[word])
    # A number of thousands of digits is a word like any other: Python will not even
    # convert it past 4,300 digits, and no answer means one.
    if len(word) <= MAX_NUMBER_CHARS and _NUMBER.fullmatch(word):
        return Fraction(word)
    return None


#: Characters of the longest number in words read as a value.
MAX_NUMBER_CHARS = 100


def is_rigid(word: str) -> bool:
    """A word no typo may change: a number or a unit."""
    return any(char.isdigit() for char in word) or word in UNITS or word in _BASE_UNITS


_BASE_UNITS = frozenset(base for base, _ in UNITS.values())


def within_one_edit(a: str, b: str) -> bool:
    """True when ``a`` becomes ``b`` by one insertion, deletion, substitution or swap."""
    if a == b:
        return True
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diffs = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
        if len(diffs) == 1:
            return True
        return (
            len(diffs) == 2
            and diffs[1] == diffs[0] + 1
            and a[diffs[0]] == b[diffs[1]]
            and a[diffs[1]] == b[diffs[0]]
        )
    shorter, longer = sorted((a, b), key=len)
    return any(longer[:i] + longer[i + 1 :] == shorter for i in range(len(longer)))


MIN_TYPO_LENGTH = 5
#: Longer text is no phrase: it goes straight to the parser and its limits
#: (normalising a 100 kB answer took 130 ms).
MAX_PHRASE_LENGTH = 300
#: Answers by meaning (concepts) are sentences: read up to this length.
MAX_ANSWER_LENGTH = 2000


def one_typo(given: Phrase, target: Phrase, protected: frozenset[str]) -> bool:
    """``given`` is ``target`` with one typo in one long word that may have one."""
    if len(given.words) != len(target.words):
        return False
    differing = [(g, t) for g, t in zip(given.words, target.words, strict=True) if g != t]
    if len(differing) != 1:
        return False
    typed, meant = differing[0]
    return (
        len(meant) >= MIN_TYPO_LENGTH
        and not is_rigid(typed)
        and not is_rigid(meant)
        and typed not in protected
        # against the plural too: a typo may sit where the plural's s was (valeus)
        and (within_one_edit(typed, meant) or within_one_edit(typed, meant + "s"))
    )


@dataclass(frozen=True)
class WordMatch:
    """Which phrase an answer matched, and whether a typo was forgiven."""

    phrase: str
    typo: bool


class WordJudge:
    """Matches answers against a blank's accepted and known-wrong phrases."""

    def __init__(
        self,
        accepted: Sequence[str],
        wrong: Sequence[str] = (),
        synonyms: Iterable[Sequence[str]] = (),
    ) -> None:
        self.vocabulary = Vocabulary(synonyms)
        self.accepted = [(p, self.vocabulary.normalise(p)) for p in accepted]
        self.wrong = [(p, self.vocabulary.normalise(p)) for p in wrong]
        self.synonyms = [list(group) for group in synonyms]

    def _protected(self, target: Phrase) -> frozenset[str]:
        """Words of every other phrase: a typo must not turn one answer into another."""
        words = {
            word
            for _, phrase in (*self.accepted, *self.wrong)
            if phrase != target
            for word in phrase.words
        }
        return frozenset(words - set(target.words))

    def _exact(self, given: Phrase, phrases: list[tuple[str, Phrase]]) -> str | None:
        for text, phrase in phrases:
            squashed = "".join(given.words) == "".join(phrase.words)
            if phrase.words and (given == phrase or squashed or given.squashed == phrase.squashed):
                return text
        return None

    def _lookup(
        self, text: str, phrases: list[tuple[str, Phrase]], rivals: list[tuple[str, Phrase]]
    ) -> WordMatch | None:
        """The phrase of ``phrases`` that ``text`` says; a rival said exactly wins a typo."""
        if not phrases or len(text) > MAX_PHRASE_LENGTH:
            return None
        given = self.vocabulary.normalise(text)
        if not given.words:
            return None
        exact = self._exact(given, phrases)
        if exact is not None:
            return WordMatch(exact, typo=False)
        if self._exact(given, rivals) is not None:
            return None
        for phrase_text, phrase in phrases:
            if one_typo(given, phrase, self._protected(phrase)):
                return WordMatch(phrase_text, typo=True)
        return None

    def in_answer_unit(self, text: str, expected: float | None) -> str | None:
        """A number with a unit (``-6 dB``, ``35 MB``, ``30‰``) as a plain number in
        the unit the answer is written in, so that it is judged by value like any
        number; None when ``text`` is no such quantity or no unit of its kind applies.

        The answer's unit is read from the accepted phrases of that kind: ``35 GB``
        beside the answer 35 says gigabytes, ``30%`` beside 0.3 says plain
        numbers. A percentage is a plain number even when no phrase says so.
        """
        given = read_quantity(text)
        if given is None:
            return None
        if given.unit is None:  # "minus six" is -6; "-6" reads as it is
            return str(given.value) if any(c.isalpha() for c in text) else None
        converted = self.unit_factor(text, expected)
        return None if converted is None else str(given.value * converted)

    def unit_factor(self, text: str, expected: float | None) -> Fraction | None:
        """How many answer units one unit of the quantity ``text`` is (2**30/10**9
        for ``2.15 GB`` on an answer in GiB); None as for :meth:`in_answer_unit`."""
        given = read_quantity(text)
        if given is None or given.unit is None:
            return None
        base, size = UNITS[given.unit]
        scale = self._answer_scale(base, expected)
        return None if scale is None else Fraction(size) / scale

    def _answer_scale(self, base: str, expected: float | None) -> Fraction | None:
        """The size, in ``base`` units, of 1 in the answer: 2**30 for an answer in GB."""
        unity = Fraction(UNITY.get(base, 1))
        scales: list[tuple[float, Fraction]] = []
        for phrase, _ in self.accepted:
            said = read_quantity(phrase)
            if said is None or said.unit is None or UNITS[said.unit][0] != base:
                continue
            for scale in (Fraction(UNITS[said.unit][1]), unity):
                value = float(said.value * UNITS[said.unit][1] / scale)
                if not expected or not value or (value > 0) != (expected > 0):
                    scales.append((math.inf, scale))
                else:
                    scales.append((abs(math.log(abs(value / expected))), scale))
        if scales:
            return min(scales, key=lambda entry: entry[0])[1]
        return unity if base == "percent" else None

    def match(self, text: str) -> WordMatch | None:
        """The accepted phrase ``text`` says, if any (a known-wrong one wins a tie)."""
        return self._lookup(text, self.accepted, self.wrong)

    def match_wrong(self, text: str) -> str | None:
        """The known-wrong phrase ``text`` says, typos forgiven as for right ones."""
        found = self._lookup(text, self.wrong, self.accepted)
        return found.phrase if found else None


@dataclass(frozen=True)
class Quantity:
    """A number as typed, with its sign, and the unit after it (None for none)."""

    value: Fraction
    unit: str | None


#: Words around a number that do not change it: "about 6 dB" is 6 dB for the judge.
_HEDGES = frozenset({"about", "roughly", "approximately", "approx", "around", "circa", "ca"})
MAX_QUANTITY_LENGTH = 60
_QUANTITY_CHARACTERS = re.compile(r"[\w\s.,%‰+\-\u2212~≈µμ]*")


def read_quantity(text: str) -> Quantity | None:
    """``text`` as one signed number and an optional unit, or None."""
    if len(text) > MAX_QUANTITY_LENGTH or not _QUANTITY_CHARACTERS.fullmatch(text):
        return None  # A^0.5 is a formula, not "a 0.5"
    if _ARTICLE_AT_START.match(text.strip().casefold()):
        return None  # "a 6" may be 6·a on a card with a symbol a
    words = [w for w in _signed(_words(text)) if w not in _HEDGES]
    if not words or len(words) > 2:
        return None
    value = _number(words[0])
    if value is None:
        return None
    if len(words) == 1:
        return Quantity(value, None)
    unit = words[1] if words[1] in UNITS else _singular(words[1])
    return Quantity(value, unit) if unit in UNITS else None


def is_quantity(text: str) -> bool:
    """A number with a unit (``2 GiB``, ``10ms``)."""
    words = _words(text)
    return len(words) == 2 and _number(words[0]) is not None and words[1] in UNITS


def expected_kind(answer: str, expects: str | None = None) -> str:
    """What kind of answer a word blank wants, said after a miss (never the answer)."""
    if expects:
        return f"expected {expects}"
    if is_quantity(answer):
        return "expected a quantity with its unit, e.g. 512 KiB or 10 ms"
    count = len(_words(answer))
    return f"expected {'a word' if count == 1 else f'a phrase of about {count} words'}"
