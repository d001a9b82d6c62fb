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
