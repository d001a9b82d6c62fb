"""Word answers: forgive the wording, never the meaning.

Two phrases match when they are the same after :func:`normalise`:

- case, punctuation and the articles *a*, *an*, *the* do not count;
- a plural is its singular (``running stats`` = ``running stat``);
- number words are numbers (``two`` = ``2``) and a quantity is its value in
  a base unit, so ``2GiB``, ``2 GB``, ``2 gigabytes`` and ``2048 MiB`` are one
  answer (an interview does not hinge on GB against GiB);
- words of one synonym group are one word (``dim`` = ``dimension``; the
  built-in groups plus the card's own ``synonyms``);
- spacing inside a word does not count (``layernorm`` = ``layer norm``).

One typo in one long word (five letters or more) is forgiven, but never in a
number, a unit, or a word that belongs to another accepted or known-wrong
answer: ``two MiB`` is not ``two GiB``, and ``mean`` is not ``median``'s typo
when ``median`` is a wrong answer the card knows.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

ARTICLES = frozenset({"a", "an", "the"})

NUMBER_WORDS: dict[str, int | Fraction] = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "sixteen": 16,
    "twenty": 20, "thirty": 30, "hundred": 100, "thousand": 1000, "half": Fraction(1, 2),
}  # fmt: skip

#: Units by every spelling, as (base unit, size in that base). Decimal and binary
#: byte prefixes are taken as one: "2 GB" for 2 GiB is what an interviewer hears.
_UNIT_SPELLINGS: dict[tuple[str, int | Fraction], tuple[str, ...]] = {
    ("byte", 1): ("b", "byte", "bytes"),
    ("byte", 2**10): ("kb", "kib", "kilobyte", "kilobytes", "kibibyte", "kibibytes"),
    ("byte", 2**20): ("mb", "mib", "megabyte", "megabytes", "mebibyte", "mebibytes"),
    ("byte", 2**30): ("gb", "gib", "gigabyte", "gigabytes", "gibibyte", "gibibytes"),
    ("byte", 2**40): ("tb", "tib", "terabyte", "terabytes", "tebibyte", "tebibytes"),
    ("bit", 1): ("bit", "bits"),
    ("second", 1): ("s", "sec", "secs", "second", "seconds"),
    ("second", Fraction(1, 1000)): ("ms", "millisecond", "milliseconds", "msec"),
    ("second", Fraction(1, 10**6)): ("us", "µs", "μs", "microsecond", "microseconds"),
    ("second", Fraction(1, 10**9)): ("ns", "nanosecond", "nanoseconds"),
    ("second", 60): ("min", "mins", "minute", "minutes"),
    ("second", 3600): ("h", "hr", "hrs", "hour", "hours"),
}
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
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


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


def _words(text: str) -> list[str]:
    """Lower-case words, digits split from letters (``2GiB`` -> ``2 gib``)."""
    text = unicodedata.normalize("NFKC", text).casefold().replace("&", " and ")
    text = re.sub(r"(\d)([^\d\s.,])", r"\1 \2", text)
    text = re.sub(r"(?<!\d)[.,]|[.,](?!\d)", " ", text)  # punctuation, not 0.5 or 1,024
    text = re.sub(r"[^\w\s.µμ]", " ", text)
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


@dataclass(frozen=True)
class Phrase:
    """A phrase after normalising: its words, and which of them are numbers or units."""

    words: tuple[str, ...]
    #: The words before synonyms, run together: ``layernorm`` is ``layer norm``.
    squashed: str = field(default="", compare=False)


class Vocabulary:
    """How one card's word answers are normalised: the built-in and card synonyms."""

    def __init__(self, synonyms: Iterable[Sequence[str]] = ()) -> None:
        self.builtin = _synonym_table(BUILTIN_SYNONYMS)
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

    def match(self, text: str) -> WordMatch | None:
        """The accepted phrase ``text`` says, if any (a known-wrong one wins a tie)."""
        return self._lookup(text, self.accepted, self.wrong)

    def match_wrong(self, text: str) -> str | None:
        """The known-wrong phrase ``text`` says, typos forgiven as for right ones."""
        found = self._lookup(text, self.wrong, self.accepted)
        return found.phrase if found else None


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
