"""2^(k-p) fractional factorial designs: generators (given, or chosen for a resolution), the
design matrix (pyDOE3's fracfact), the defining relation, the resolution and the alias table.

Factors are lettered A, B, C, ... in the design's factor order (I is skipped: it names the
identity column). Level -1 is a factor's first level as given, +1 its second. A generator
"D = AB" (or "D = -AB") sets a generated factor's column to the product of base columns; the
base factors are those no generator defines, and their full factorial is the design's runs.
"""

import itertools
import re
import string
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt
from pyDOE3 import fracfact

LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"  # no I: it is the identity column's name
# The alias table enumerates all 2^k words; 9 factors (512 words) is cheap, and a 2^9 grid
# is already past what one runs with replications.
MAX_FACTORS = 9
MIN_FACTORS = 3  # a fraction of a 2^2 design leaves a main effect aliased with another
# Interactions of four or more factors are assumed negligible (sparsity of effects), so the
# alias table lists terms up to three factors and counts the rest.
ALIAS_ORDER = 3
# Candidate generator sets examined for a resolution: enough for every k <= MAX_FACTORS
# at p <= 5, bounded so a preview stays fast.
MAX_SEARCH = 20_000

Word = tuple[int, ...]  # sorted factor indices


class FractionError(ValueError):
    """A bad fraction; `field` is the request field to blame ("generators", "resolution")."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


@dataclass(frozen=True)
class Generator:
    """factor = sign x product of the base factors in `word`."""

    factor: int
    word: Word
    sign: int


@dataclass(frozen=True)
class Term:
    """A signed word: an effect, or an interaction aliased with it."""

    word: Word
    sign: int


@dataclass(frozen=True)
class AliasSet:
    """The effects one column of the design estimates together. `column` is the column's
    word of base factors; `terms` the confounded effects up to ALIAS_ORDER factors, lowest
    order first, each signed relative to the first: the column's effect estimates
    sign x (terms[0] + terms[1].sign x terms[1] + ...)."""

    column: Word
    sign: int
    terms: tuple[Term, ...]
    omitted: int  # aliases of more than ALIAS_ORDER factors, not listed


@dataclass(frozen=True)
class Fraction:
    """A 2^(k-p) design: its runs in coded units and how its effects are confounded."""

    k: int
    generators: tuple[Generator, ...]
    base: tuple[int, ...]
    coded: npt.NDArray[np.int64]  # (2^(k-p), k), +/-1
    defining_relation: tuple[Term, ...]  # the words equal to +/-I
    resolution: int | None  # length of the shortest defining word; None for the full design
    aliases: tuple[AliasSet, ...]  # one per column of the base factors' sign table, mean first

    @property
    def p(self) -> int:
        return len(self.generators)

    @property
    def runs(self) -> int:
        return int(self.coded.shape[0])


def letter(factor: int) -> str:
    return LETTERS[factor]


def word_name(term: Term, names: list[str] | None = None) -> str:
    """The word's letters ("A", "BCD", "-AB"; "I" for the empty word); with factor `names`,
    joined by ":" as the factorial analysis names interactions ("servers:workers")."""
    if names is None:
        name = "".join(letter(f) for f in term.word) or "I"
    else:
        name = ":".join(names[f] for f in term.word) or "I"
    return name if term.sign > 0 else "-" + name


def roman(resolution: int | None) -> str:
    """III, IV, V, ...; "full" for an unfractionated design."""
    if resolution is None:
        return "full"
    numerals = ((10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))
    out = ""
    for value, text in numerals:
        while resolution >= value:
            out, resolution = out + text, resolution - value
    return out


_GENERATOR = re.compile(r"^\s*([A-Z])\s*=\s*([+-]?)\s*([A-Z]+)\s*$")


def parse_generators(texts: list[str], k: int) -> tuple[Generator, ...]:
    """Generators as users write them ("D = AB", "E = -ABC"), checked for a k-factor design."""
    _check_k(k, "generators")
    if not texts:
        raise FractionError("generators", "give at least one generator, e.g. 'D = ABC'")
    if len(texts) > k - 2:
        raise FractionError("generators", f"at most {k - 2} generators for {k} factors")
    used = LETTERS[:k]
    gens: list[Generator] = []
    for text in texts:
        match = _GENERATOR.match(text.upper())
        if match is None:
            raise FractionError("generators", f"{text!r} is not of the form 'D = ABC'")
        left, sign, right = match.groups()
        for ch in left + right:
            if ch not in used:
                raise FractionError(
                    "generators", f"{text!r}: {ch} is not one of the {k} factors {used}"
                )
        if len(set(right)) != len(right):
            raise FractionError("generators", f"{text!r}: a factor is repeated in {right}")
        gens.append(
            Generator(
                used.index(left),
                tuple(sorted(used.index(c) for c in right)),
                -1 if sign == "-" else 1,
            )
        )
    generated = {g.factor for g in gens}
    if len(generated) != len(gens):
        raise FractionError("generators", "a factor is generated twice")
    for g, text in zip(gens, texts, strict=True):
        if set(g.word) & generated:
            raise FractionError(
                "generators",
                f"{text!r}: the right side may use base factors only, not generated ones",
            )
        if len(g.word) < 2:
            raise FractionError(
                "generators", f"{text!r}: a factor equal to another aliases two main effects"
            )
    if len({g.word for g in gens}) != len(gens):
        raise FractionError("generators", "two generated factors have the same word")
    return tuple(gens)


def _check_k(k: int, field: str) -> None:
    if not MIN_FACTORS <= k <= MAX_FACTORS:
        raise FractionError(
            field,
            f"a fractional design needs {MIN_FACTORS}..{MAX_FACTORS} two-level factors, found {k}",
        )


def _mask(word: Word) -> int:
    return sum(1 << f for f in word)


def _word(mask: int) -> Word:
    return tuple(f for f in range(mask.bit_length()) if mask >> f & 1)


def _relation_masks(k: int, gens: tuple[Generator, ...]) -> list[tuple[int, int]]:
    """Every word of the defining relation (mask, sign), I excluded: the products of the
    generators' words g x word(g) (each equal to sign x I)."""
    out = []
    for n in range(1, len(gens) + 1):
        for chosen in itertools.combinations(gens, n):
            mask, sign = 0, 1
            for g in chosen:
                mask ^= _mask(g.word) | (1 << g.factor)
                sign *= g.sign
            out.append((mask, sign))
    return out


def _wordlength_pattern(k: int, gens: tuple[Generator, ...]) -> tuple[int, ...]:
    counts = [0] * (k + 1)
    for mask, _ in _relation_masks(k, gens):
        counts[mask.bit_count()] += 1
    return tuple(counts[3:])


@lru_cache(maxsize=64)
def generators_for_resolution(k: int, resolution: int) -> tuple[Generator, ...]:
    """The generators of the smallest 2^(k-p) design of at least `resolution`, of minimum
    aberration among those found (fewest shortest defining words), generated factors last.

    pyDOE3's fracfact_by_res is not used: it never takes the interaction of all base factors
    as a generator, so it misses the 2^(7-4) III (G = ABC) and the 2^(5-1) V (E = ABCD)."""
    _check_k(k, "resolution")
    if not 3 <= resolution <= k:
        raise FractionError("resolution", f"must be 3..{k} for {k} factors (III = 3, IV = 4, ...)")
    for p in range(k - 2, 0, -1):
        base = k - p
        words = [
            w
            for n in range(resolution - 1, base + 1)
            for w in itertools.combinations(range(base), n)
        ]
        best: tuple[tuple[int, ...], tuple[Generator, ...]] | None = None
        for count, chosen in enumerate(itertools.combinations(words, p)):
            if count >= MAX_SEARCH:
                break
            gens = tuple(Generator(base + i, w, 1) for i, w in enumerate(chosen))
            wlp = _wordlength_pattern(k, gens)
            if any(wlp[: resolution - 3]):
                continue
            if best is None or wlp < best[0]:
                best = (wlp, gens)
        if best is not None:
            return best[1]
    raise FractionError(
        "resolution", f"no fraction of a 2^{k} design has resolution {roman(resolution)}"
    )


def build(k: int, gens: tuple[Generator, ...]) -> Fraction:
    """The design of `gens` (none: the full 2^k) with its defining relation and aliases."""
    generated = {g.factor: g for g in gens}
    base = tuple(f for f in range(k) if f not in generated)
    # pyDOE3 names the base factors a, b, c, ... in column order and requires exactly that.
    py_name = {f: string.ascii_lowercase[i] for i, f in enumerate(base)}
    terms = []
    for f in range(k):
        g = generated.get(f)
        if g is None:
            terms.append(py_name[f])
        else:
            terms.append(("-" if g.sign < 0 else "") + "".join(py_name[b] for b in g.word))
    coded = np.asarray(fracfact(" ".join(terms)), dtype=np.int64)
    relation = tuple(
        sorted(
            (Term(_word(mask), sign) for mask, sign in _relation_masks(k, gens)),
            key=lambda t: (len(t.word), t.word),
        )
    )
    resolution = min((len(t.word) for t in relation), default=None)
    return Fraction(k, gens, base, coded, relation, resolution, _alias_sets(coded, base))


def _alias_sets(coded: npt.NDArray[np.int64], base: tuple[int, ...]) -> tuple[AliasSet, ...]:
    """One alias set per column of the base factors' sign table, in its standard order (the
    column order of backend.analysis.factorial): the words whose contrast is +/- the column's.

    Grouped here, not by pyDOE3's fracfact_aliasing, which tells a word from its negative:
    with E = -ABCD it puts A and BCDE in different sets, though one column estimates both."""
    k = coded.shape[1]
    columns: dict[bytes, list[tuple[Word, int]]] = {}
    for n in range(k + 1):
        for word in itertools.combinations(range(k), n):
            c = _contrast(coded, word)
            columns.setdefault((c * c[0]).tobytes(), []).append((word, int(c[0])))
    out = []
    for col in range(2 ** len(base)):
        column = tuple(base[j] for j in range(len(base)) if col >> j & 1)
        ref = _contrast(coded, column)
        words = sorted(columns[(ref * ref[0]).tobytes()], key=lambda w: (len(w[0]), w[0]))
        first_sign = words[0][1] * int(ref[0])  # first word's contrast = first_sign x column's
        listed = [w for w in words if len(w[0]) <= ALIAS_ORDER or w == words[0]]
        terms = tuple(Term(w, s * words[0][1]) for w, s in listed)
        out.append(AliasSet(column, first_sign, terms, len(words) - len(listed)))
    return tuple(out)


def _contrast(coded: npt.NDArray[np.int64], word: Word) -> npt.NDArray[np.int64]:
    if not word:
        return np.ones(coded.shape[0], dtype=np.int64)
    return np.asarray(np.prod(coded[:, list(word)], axis=1), dtype=np.int64)


def alias_label(aliases: AliasSet, names: list[str] | None = None) -> str:
    """What a column estimates: "A + BCD", "AB - CD", "I + ABCD", with "+ ..." when
    higher-order aliases are left out (factor `names`: "servers + workers:clients")."""
    text = word_name(aliases.terms[0], names)
    for t in aliases.terms[1:]:
        text += (" + " if t.sign > 0 else " - ") + word_name(Term(t.word, 1), names)
    return text + (" + ..." if aliases.omitted else "")


def resolve(k: int, generators: list[str] | None, resolution: int | None) -> Fraction:
    """The fraction a design asks for: by its generators, or the smallest of a resolution."""
    if generators is not None:
        return build(k, parse_generators(generators, k))
    if resolution is None:
        raise FractionError("generators", "give either generators or a resolution")
    return build(k, generators_for_resolution(k, resolution))


def generator_text(g: Generator) -> str:
    """ "D = AB", "E = -AC"."""
    return f"{letter(g.factor)} = {word_name(Term(g.word, g.sign))}"


def coded_points(fraction: Fraction, factors: dict[str, list[Any]]) -> list[dict[str, Any]]:
    """The design's configurations: level -1 is a factor's first level, +1 its second."""
    names = list(factors)
    return [
        {n: factors[n][0 if c < 0 else 1] for n, c in zip(names, row, strict=True)}
        for row in fraction.coded.tolist()
    ]
