"""Figures of the cards added on branch newcards-b (issue 23 item 6), each
recomputed independently of the card's own snippet.
"""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np
import pytest

RNG = np.random.default_rng(2323)


# -- residual-branch-scaling -------------------------------------------------------


def test_gpt2_small_residual_projection_std():
    n_layer = 12
    assert 0.02 / math.sqrt(2 * n_layer) == pytest.approx(0.00408, abs=5e-6)


@pytest.mark.parametrize(("n_layer", "unscaled"), [(12, 25), (48, 97)])
def test_residual_stream_variance_with_and_without_scaling(n_layer, unscaled):
    branches = 2 * n_layer
    assert 1 + branches * 1.0 == unscaled
    assert 1 + branches * (1 / math.sqrt(branches)) ** 2 == pytest.approx(2.0)


def test_simulated_stream_matches_the_sum_of_variances():
    branches, x = 24, RNG.standard_normal(200_000)
    for _ in range(branches):
        x = x + RNG.standard_normal(x.size) / math.sqrt(branches)
    assert x.var() == pytest.approx(2.0, abs=0.03)


# -- double-dqn-target ---------------------------------------------------------------


def test_dqn_and_double_dqn_targets_of_the_worked_example():
    r, gamma, online, target = 1.0, 0.9, [5.0, 4.0], [3.0, 6.0]
    assert r + gamma * max(target) == pytest.approx(6.4)
    assert r + gamma * target[int(np.argmax(online))] == pytest.approx(3.7)


def test_expected_max_of_ten_standard_normals_is_1_54():
    # E[max] by integrating x d(Phi(x)^10)
    xs = np.linspace(-8, 8, 200_001)
    cdf = np.array([NormalDist().cdf(v) for v in xs[::100]])
    density = np.gradient(cdf**10, xs[::100])
    assert np.trapezoid(xs[::100] * density, xs[::100]) == pytest.approx(1.54, abs=0.005)


# -- natural-gradient ----------------------------------------------------------------


def test_one_natural_step_lands_on_the_gaussian_mle():
    sigma, mu, xbar = 2.0, 0.0, 3.0
    grad = -(xbar - mu) / sigma**2
    assert grad == pytest.approx(-0.75)
    assert 1 / sigma**2 == pytest.approx(0.25)
    natural = sigma**2 * grad
    assert natural == pytest.approx(-3.0) and mu - natural == pytest.approx(xbar)
    assert mu - grad == pytest.approx(0.75)


def test_fisher_of_the_mean_is_the_variance_of_the_score():
    x = RNG.normal(0.0, 2.0, 400_000)
    assert np.var(x / 4.0) == pytest.approx(0.25, abs=3e-3)


# -- trpo-surrogate ------------------------------------------------------------------


def test_trpo_step_fills_the_trust_region_exactly():
    delta = 0.01
    fisher, grad = np.diag([2.0, 8.0]), np.array([1.0, 2.0])
    x = np.linalg.solve(fisher, grad)
    s = grad @ x
    beta = math.sqrt(2 * delta / s)
    step = beta * x
    assert x.tolist() == [0.5, 0.25] and s == pytest.approx(1.0)
    assert beta == pytest.approx(0.1414, abs=1e-4)
    assert step[0] == pytest.approx(0.0707, abs=1e-4) and step[1] == pytest.approx(0.0354, abs=1e-4)
    assert 0.5 * step @ fisher @ step == pytest.approx(delta)


def test_trpo_importance_weight_of_one_sample():
    new, old, advantage = 0.3, 0.25, 2.0
    assert new / old == pytest.approx(1.2) and new / old * advantage == pytest.approx(2.4)


# -- fp8-formats ---------------------------------------------------------------------


def fp8_values(exp_bits, man_bits, ieee):
    bias = 2 ** (exp_bits - 1) - 1
    values = []
    for e in range(2**exp_bits):
        for f in range(2**man_bits):
            top = e == 2**exp_bits - 1
            if (ieee and top) or (not ieee and top and f == 2**man_bits - 1):
                continue
            frac = f / 2**man_bits
            values.append(frac * 2.0 ** (1 - bias) if e == 0 else (1 + frac) * 2.0 ** (e - bias))
    return np.array(values)


def test_fp8_extremes():
    e4m3, e5m2 = fp8_values(4, 3, ieee=False), fp8_values(5, 2, ieee=True)
    assert e4m3.max() == 448 and e5m2.max() == 57344
    assert fp8_values(4, 3, ieee=True).max() == 240  # the IEEE-style E4M3
    assert 1.875 * 2**8 == 480
    assert sorted(set(e4m3))[1] == 2.0**-9 and sorted(set(e5m2))[1] == 2.0**-16
    assert e4m3[e4m3 >= 1].min() == 1 and e4m3[e4m3 > 1].min() - 1 == 0.125


def test_fp8_rounding_of_the_worked_example():
    e4m3, e5m2 = fp8_values(4, 3, ieee=False), fp8_values(5, 2, ieee=True)

    def nearest(values, x):
        return values[np.argmin(np.abs(values - x))]

    assert nearest(e4m3, 300) == 288 and nearest(e5m2, 300) == 320
    assert nearest(e4m3, 0.3) == 0.3125 and nearest(e5m2, 0.3) == 0.3125
    assert nearest(e5m2, 1000) == 1024
    in_quarter = e5m2[(e5m2 >= 0.25) & (e5m2 <= 0.5)]
    assert np.diff(np.sort(in_quarter)).max() == 0.0625  # E5M2 spacing in [0.25, 0.5)


# -- adafactor -----------------------------------------------------------------------


def test_adafactor_reconstruction_of_the_worked_example():
    v = np.array([[1.0, 2.0], [3.0, 1.0]])
    rows, cols = v.sum(1), v.sum(0)
    assert rows.tolist() == [3, 4] and cols.tolist() == [4, 3]
    v_hat = np.outer(rows, cols) / v.sum()
    assert np.round(v_hat, 3).tolist() == [[1.714, 1.286], [2.286, 1.714]]
    assert 4096 * 4096 // (4096 + 4096) == 2048


def test_adafactor_factorisation_minimises_i_divergence_among_rank_one():
    v = RNG.random((4, 3)) + 0.1
    best = np.outer(v.sum(1), v.sum(0)) / v.sum()

    def i_div(a):
        return np.sum(v * np.log(v / a) - v + a)

    for _ in range(200):
        other = np.outer(RNG.random(4) + 0.05, RNG.random(3) + 0.05) * v.sum()
        assert i_div(best) <= i_div(other) + 1e-12


# -- shampoo-preconditioner ------------------------------------------------------------


def test_shampoo_single_step_equalises_the_directions():
    root = 9.0**-0.25
    assert root == pytest.approx(0.577, abs=5e-4)
    assert root * 3 * root == pytest.approx(1.0)
    side = 4096
    assert 2 * side**2 == pytest.approx(33.6e6, rel=2e-3)
    assert float(side) ** 4 == pytest.approx(2.8e14, rel=0.02)


# -- muon-orthogonalised-momentum ------------------------------------------------------


def test_muon_cubic_newton_schulz_on_singular_values():
    small, large = 1 / math.sqrt(10), 3 / math.sqrt(10)
    assert (round(large, 3), round(small, 3)) == (0.949, 0.316)
    trail = []
    for _ in range(6):
        small, large = 1.5 * small - 0.5 * small**3, 1.5 * large - 0.5 * large**3
        trail.append(round(small, 3))
        if len(trail) == 1:
            assert round(large, 3) == 0.996
        if len(trail) == 2:
            assert round(large, 3) == 1.0
    assert trail == [0.459, 0.64, 0.829, 0.958, 0.997, 1.0]
