"""Fractional designs against published tables.

References: NIST/SEMATECH e-Handbook of Statistical Methods, sec. 5.3.3.4.7 "Summary tables
of useful fractional factorial designs" (2^(7-4) III: D = AB, E = AC, F = BC, G = ABC;
2^(5-1) V: E = ABCD), and Montgomery, Design and Analysis of Experiments, Table 8.14 (the
same generators) with the 2^(7-4) III alias structure of its Table 8.19 (two-factor
interactions only): A = BD = CE = FG, B = AD = CF = EG, C = AE = BF = DG, D = AB = CG = EF,
E = AC = BG = DF, F = BC = AG = DE, G = CD = BE = AF."""

import itertools

import numpy as np
import pytest
from pyDOE3 import fracfact_aliasing

from backend.domain import fraction as fr


def _two_factor_aliases(f: fr.Fraction) -> dict[str, set[str]]:
    """Main effect -> the two-factor interactions aliased with it."""
    out = {}
    for a in f.aliases:
        names = [fr.word_name(fr.Term(t.word, 1)) for t in a.terms]
        if len(names[0]) == 1 and names[0] != "I":
            out[names[0]] = {n for n in names[1:] if len(n) == 2}
    return out


def test_7_4_resolution_iii_matches_the_published_table() -> None:
    f = fr.build(7, fr.generators_for_resolution(7, 3))
    assert [fr.generator_text(g) for g in f.generators] == [
        "D = AB",
        "E = AC",
        "F = BC",
        "G = ABC",
    ]
    assert (f.runs, f.p, f.resolution, fr.roman(f.resolution)) == (8, 4, 3, "III")
    # The defining relation: 2^4 - 1 = 15 words, seven of them of length 3.
    words = [fr.word_name(t) for t in f.defining_relation]
    assert len(words) == 15
    assert [w for w in words if len(w) == 3] == ["ABD", "ACE", "AFG", "BCF", "BEG", "CDG", "DEF"]
    assert _two_factor_aliases(f) == {
        "A": {"BD", "CE", "FG"},
        "B": {"AD", "CF", "EG"},
        "C": {"AE", "BF", "DG"},
        "D": {"AB", "CG", "EF"},
        "E": {"AC", "BG", "DF"},
        "F": {"BC", "AG", "DE"},
        "G": {"CD", "BE", "AF"},
    }
    # Every run of the published table: G = ABC etc. hold in each row, 8 distinct rows.
    c = f.coded
    assert len({tuple(r) for r in c.tolist()}) == 8
    for gen in f.generators:
        assert np.array_equal(c[:, gen.factor], np.prod(c[:, list(gen.word)], axis=1))


def test_5_1_resolution_v_matches_the_published_table() -> None:
    f = fr.build(5, fr.generators_for_resolution(5, 5))
    assert [fr.generator_text(g) for g in f.generators] == ["E = ABCD"]
    assert (f.runs, f.resolution, fr.roman(f.resolution)) == (16, 5, "V")
    assert [fr.word_name(t) for t in f.defining_relation] == ["ABCDE"]
    labels = {fr.alias_label(a) for a in f.aliases}
    # Main effects alias four-factor interactions (left out of the table, counted), two-factor
    # interactions alias three-factor ones: AB = CDE, ..., as in the tables.
    assert "A + ..." in labels and "E + ..." in labels
    for a, b in itertools.combinations("ABCDE", 2):
        rest = "".join(x for x in "ABCDE" if x not in (a, b))
        assert f"{a}{b} + {rest}" in labels


def test_resolution_iv_designs_of_the_tables() -> None:
    # NIST: 2^(4-1) IV D = ABC; 2^(6-2) IV (16 runs); 2^(8-4) IV (16 runs).
    assert [fr.generator_text(g) for g in fr.generators_for_resolution(4, 4)] == ["D = ABC"]
    assert fr.build(6, fr.generators_for_resolution(6, 4)).runs == 16
    assert fr.build(8, fr.generators_for_resolution(8, 4)).runs == 16
    assert fr.build(8, fr.generators_for_resolution(8, 4)).resolution == 4


@pytest.mark.parametrize("gens", [["D = AB", "E = AC", "F = BC", "G = ABC"], ["E = ABCD"]])
def test_alias_sets_agree_with_pydoe3(gens: list[str]) -> None:
    k = 7 if len(gens) == 4 else 5
    f = fr.build(k, fr.parse_generators(gens, k))
    groups, _ = fracfact_aliasing(f.coded.astype(np.float64))
    theirs = {frozenset(w.strip().upper() for w in g.split("=")) for g in groups}
    ours = set()
    for a in f.aliases[1:]:
        # the same set, up to the ALIAS_ORDER cut
        match = [g for g in theirs if fr.word_name(a.terms[0]) in g]
        assert len(match) == 1
        listed = {fr.word_name(fr.Term(t.word, 1)) for t in a.terms}
        assert listed == {w for w in match[0] if len(w) <= fr.ALIAS_ORDER} | {
            fr.word_name(a.terms[0])
        }
        assert a.omitted == len(match[0]) - len(listed)
        ours.add(match[0])
    assert len(ours) == f.runs - 1


def test_negative_generator_signs_the_aliases() -> None:
    f = fr.build(5, fr.parse_generators(["E = -ABCD"], 5))
    assert [fr.word_name(t) for t in f.defining_relation] == ["-ABCDE"]
    labels = {fr.alias_label(a) for a in f.aliases}
    assert "AB - CDE" in labels
    e = next(a for a in f.aliases if fr.word_name(a.terms[0]) == "E")
    assert e.column == (0, 1, 2, 3) and e.sign == -1  # column ABCD estimates -E


@pytest.mark.parametrize(
    ("gens", "k", "reason"),
    [
        (["D = AB", "D = AC"], 4, "generated twice"),
        (["D = A"], 4, "aliases two main effects"),
        (["D = AB", "E = AB"], 5, "same word"),
        (["D = AX"], 4, "X is not one of the 4 factors"),
        (["D + AB"], 4, "not of the form"),
        (["D = AAB"], 4, "repeated"),
        (["D = AB", "E = AD"], 5, "base factors only"),
        (["C = AB", "D = AB"], 4, "same word"),
        (["B = A", "C = A", "D = A"], 4, "at most 2 generators"),
    ],
)
def test_bad_generators_are_refused(gens: list[str], k: int, reason: str) -> None:
    with pytest.raises(fr.FractionError, match=reason) as err:
        fr.parse_generators(gens, k)
    assert err.value.field == "generators"


def test_bad_resolutions_are_refused() -> None:
    with pytest.raises(fr.FractionError, match="must be 3..4") as err:
        fr.generators_for_resolution(4, 5)
    assert err.value.field == "resolution"
    with pytest.raises(fr.FractionError, match="3..9 two-level factors") as err:
        fr.generators_for_resolution(2, 3)
    assert err.value.field == "resolution"


def test_points_use_the_first_level_as_minus_one() -> None:
    f = fr.build(3, fr.parse_generators(["C = AB"], 3))
    points = fr.coded_points(f, {"servers": [3, 1], "workers": [8, 32], "sharded": [False, True]})
    assert len(points) == 4
    for p in points:  # C = AB: sharded is True exactly when servers and workers agree
        assert p["sharded"] == ((p["servers"] == 3) == (p["workers"] == 8))
