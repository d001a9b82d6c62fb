"""Training, probability, metrics and classical-ML cards: their numbers, recomputed.

Each test recomputes, with numpy and independently of the card's own ``code``,
a figure or identity that a card's explanation or worked example states, so a
wrong number in the deck fails here.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

RNG = np.random.default_rng(2026)


def softmax(z, axis=-1):
    e = np.exp(z - z.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def sigmoid(z):
    return 1 / (1 + np.exp(-z))


# -- optimisers ---------------------------------------------------------------------------


def test_adam_first_step_figures():
    beta1, beta2, g = 0.9, 0.999, 0.5
    m, v = (1 - beta1) * g, (1 - beta2) * g * g
    assert m / (1 - beta1) == pytest.approx(g)
    assert v / (1 - beta2) == pytest.approx(g * g)
    assert m / math.sqrt(v) == pytest.approx(3.162, abs=1e-3)
    assert 1 - beta2**10 == pytest.approx(0.00996, abs=1e-5)


def test_adamw_conventions_and_l2_distortion():
    alpha, lam = 1e-3, 0.1
    assert (1 - alpha * lam) ** 1000 == pytest.approx(0.905, abs=1e-3)
    assert (1 - alpha * lam) ** 10_000 == pytest.approx(0.368, abs=1e-3)
    effective = [lam / (math.sqrt(v) + 1e-8) for v in (1e-2, 1e-6)]
    assert effective[0] == pytest.approx(1.0, rel=1e-6)
    assert effective[1] == pytest.approx(100.0, rel=1e-4)


def test_forgetting_the_accumulation_divisor():
    g_correct = RNG.normal(size=6)
    g_forgot = 8 * g_correct
    sgd_step_ratio = np.linalg.norm(0.1 * g_forgot) / np.linalg.norm(0.1 * g_correct)
    assert sgd_step_ratio == pytest.approx(8)
    adam = lambda g: g / (np.abs(g) + 1e-8)  # noqa: E731 - first Adam step
    assert np.allclose(adam(g_forgot), adam(g_correct), atol=1e-6)
    g = RNG.normal(size=6)
    g *= 0.5 / np.linalg.norm(g)  # a healthy gradient of norm 0.5, clipped at 1.0
    assert min(1.0, 1.0 / np.linalg.norm(g)) == 1.0
    assert min(1.0, 1.0 / np.linalg.norm(8 * g)) == pytest.approx(0.25)


def test_clipping_example():
    g = np.array([3.0, 4.0])
    factor = min(1.0, 1.0 / np.linalg.norm(g))
    assert np.allclose(g * factor, [0.6, 0.8])
    assert math.degrees(math.atan2(4, 3)) == pytest.approx(53.13, abs=0.01)


def test_l2_step_and_half_life():
    eta, lam, theta, g = 0.1, 5e-4, 0.5, 0.01
    assert (1 - eta * lam) * theta - eta * g == pytest.approx(0.498975)
    assert theta - eta * (g + lam * theta) == pytest.approx(0.498975)
    assert math.log(2) / (eta * lam) == pytest.approx(13_863, abs=1)


def test_label_smoothing_optimum_and_floor():
    K, eps = 10, 0.1
    target = np.full(K, eps / K)
    target[0] += 1 - eps
    assert target[0] == pytest.approx(0.91)
    assert math.log(target[0] / target[1]) == pytest.approx(4.511, abs=1e-3)
    assert -(target * np.log(target)).sum() == pytest.approx(0.5003, abs=1e-4)


def test_linear_scaling_example():
    k = 8192 / 256
    assert k * 0.1 == pytest.approx(3.2)
    means = RNG.normal(size=(4_000, int(k))).mean(axis=1)
    assert means.std() == pytest.approx(1 / math.sqrt(k), rel=0.05)
    assert 1 / math.sqrt(k) == pytest.approx(0.177, abs=1e-3)


def test_softmax_examples():
    assert np.allclose(softmax(np.array([2.0, 1.0, 0.1])), [0.659, 0.242, 0.099], atol=1e-3)
    assert np.allclose(softmax(np.array([1000.0, 999.0, 990.0])), [0.731, 0.269, 3.3e-5], atol=1e-3)
    assert math.log(np.finfo(np.float32).max) == pytest.approx(88.72, abs=0.01)
    assert math.log(65504) == pytest.approx(11.09, abs=0.01)
    z1, z2, c = 0.7, -1.2, 40.0
    shifted = math.exp(z1 + c) / (math.exp(z1 + c) + math.exp(z2 + c))
    assert shifted == pytest.approx(1 / (1 + math.exp(z2 - z1)))


@pytest.mark.parametrize(("tau", "ratio"), [(0.5, 7.389), (1.0, 2.718), (2.0, 1.649)])
def test_temperature_ratios(tau, ratio):
    p = softmax(np.array([2.0, 1.0, 0.0]) / tau)
    assert p[0] / p[1] == pytest.approx(ratio, abs=1e-3)


def test_distillation_gradient_scales_as_one_over_tau_squared():
    z_s, z_t = RNG.normal(size=5), RNG.normal(size=5)
    grads = []
    for tau in (20.0, 40.0):
        grads.append(np.abs((softmax(z_s / tau) - softmax(z_t / tau)) / tau).sum())
    assert grads[0] / grads[1] == pytest.approx(4, rel=0.02)


def test_tanh_examples():
    assert 2 * sigmoid(2.0) - 1 == pytest.approx(math.tanh(1.0))
    assert 1 - math.tanh(1.0) ** 2 == pytest.approx(0.4200, abs=1e-4)
    assert 1 - math.tanh(2.0) ** 2 == pytest.approx(0.0707, abs=1e-4)
    assert pytest.approx(9.5e-7, rel=0.01) == 0.25**10


def test_cosine_schedule_example():
    peak, floor, S = 3e-4, 3e-5, 98_000

    def lr(s):
        return floor + (peak - floor) * (1 + math.cos(math.pi * s / S)) / 2

    assert lr(S / 4) == pytest.approx(2.605e-4, rel=1e-3)
    assert lr(S / 2) == pytest.approx(1.65e-4)
    assert (1 + math.cos(math.pi / 4)) / 2 == pytest.approx(0.854, abs=1e-3)


def test_dropout_variance():
    x, p = 2.0, 0.5
    assert x * x * p / (1 - p) == 4.0
    assert x * x * 0.1 / 0.9 == pytest.approx(0.444, abs=1e-3)


def test_batch_norm_running_mean():
    running = 0.0
    for mean in (0.0, 0.4, 0.2):
        running = 0.9 * running + 0.1 * mean
    assert running == pytest.approx(0.056)


# -- initialisation -------------------------------------------------------------------------


def test_initialisation_figures():
    assert math.sqrt(2 / 512) == 0.0625
    assert math.sqrt(6 / 512) == pytest.approx(0.108, abs=1e-3)
    assert pytest.approx(9.3e-10, rel=0.01) == 2.0**-30
    assert math.sqrt(6 / 1040) == pytest.approx(0.0760, abs=1e-4)
    assert 1 / 784 < 2 / 1040 < 1 / 256


# -- probability --------------------------------------------------------------------------


def test_bayes_odds_form_and_second_test():
    evidence = 0.99 * 1e-4 + 0.01 * (1 - 1e-4)
    posterior = 0.99 * 1e-4 / evidence
    odds = 1e-4 / (1 - 1e-4) * 99
    assert posterior == pytest.approx(odds / (1 + odds))
    second = 0.99 * posterior / (0.99 * posterior + 0.01 * (1 - posterior))
    assert second == pytest.approx(0.495, abs=1e-3)


def test_entropy_examples():
    h = lambda p: -p * math.log(p) - (1 - p) * math.log(1 - p)  # noqa: E731
    assert h(0.1) == pytest.approx(0.325, abs=1e-3)
    assert h(0.1) / math.log(2) == pytest.approx(0.469, abs=1e-3)
    assert math.log(1000) / math.log(2) == pytest.approx(9.97, abs=0.01)
    p, dp = 0.2, 1e-6  # the binary entropy's slope is the negative logit
    assert (h(p + dp) - h(p - dp)) / (2 * dp) == pytest.approx(math.log((1 - p) / p))


def test_gaussian_nll_example():
    mse = (1 + 4 + 0.25 + 0) / 4
    assert 0.5 * math.log(2 * math.pi * mse) + 0.5 == pytest.approx(1.555, abs=1e-3)
    assert mse / 2 + 0.5 * math.log(2 * math.pi) == pytest.approx(1.575, abs=1e-3)


def test_kl_examples():
    assert 0.5 * math.log(0.5 / 0.9) + 0.5 * math.log(5) == pytest.approx(0.511, abs=1e-3)
    assert 0.9 * math.log(1.8) + 0.1 * math.log(0.2) == pytest.approx(0.368, abs=1e-3)


def test_logistic_confident_mistake():
    s = sigmoid(-4.0)
    assert s - 1 == pytest.approx(-0.982, abs=1e-3)
    assert (s - 1) * s * (1 - s) == pytest.approx(-0.0173, abs=1e-4)


def test_perplexity_examples():
    assert math.exp(2.3) == pytest.approx(9.97, abs=0.01)
    assert math.log(50_257) == pytest.approx(10.82, abs=0.01)
    assert math.exp(3.0) / math.exp(2.9) == pytest.approx(1.105, abs=1e-3)


def test_ensemble_variance_with_correlation():
    n, rho = 10, 0.5
    S = np.full((n, n), rho) + (1 - rho) * np.eye(n)
    w = np.full(n, 1 / n)
    assert w @ S @ w == pytest.approx(0.55)


# -- metrics ------------------------------------------------------------------------------


def f_beta(p, r, beta):
    return (1 + beta**2) * p * r / (beta**2 * p + r)


def test_f_beta_weight_and_balance_readings():
    p, r, beta = 0.8, 0.5, 2.0
    assert f_beta(p, r, 1) == pytest.approx(80 / 130)
    assert f_beta(p, r, beta) == pytest.approx(2 / 3.7)
    assert 1 / f_beta(p, r, beta) == pytest.approx((1 / p + beta**2 / r) / (1 + beta**2))
    p0, h = 0.3, 1e-6
    r0 = beta * p0
    d_p = (f_beta(p0 + h, r0, beta) - f_beta(p0 - h, r0, beta)) / (2 * h)
    d_r = (f_beta(p0, r0 + h, beta) - f_beta(p0, r0 - h, beta)) / (2 * h)
    assert d_p == pytest.approx(d_r, rel=1e-6)


def test_precision_depends_on_prevalence():
    def precision(prevalence, tpr=0.9, fpr=0.05):
        return prevalence * tpr / (prevalence * tpr + (1 - prevalence) * fpr)

    assert precision(0.01) == pytest.approx(90 / 585)
    assert precision(0.10) == pytest.approx(900 / 1350)
