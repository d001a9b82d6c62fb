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


# -- backprop and optimisation ---------------------------------------------------------------


def test_linear_layer_gradients_by_finite_differences():
    W, x, delta = RNG.normal(size=(3, 5)), RNG.normal(size=5), RNG.normal(size=3)

    def loss(W, x):
        return delta @ (W @ x)  # dL/dy = delta exactly

    h = 1e-6
    fd_W = np.array(
        [
            [(loss(W + h * E, x) - loss(W - h * E, x)) / (2 * h) for E in row]
            for row in np.eye(15).reshape(3, 5, 3, 5)
        ]
    )
    fd_x = np.array([(loss(W, x + h * e) - loss(W, x - h * e)) / (2 * h) for e in np.eye(5)])
    assert np.allclose(fd_W, np.outer(delta, x), atol=1e-6)
    assert np.allclose(fd_x, W.T @ delta, atol=1e-6)
    worked_W = np.array([[1, 0, -1], [2, 1, 0]])
    assert np.allclose(worked_W.T @ np.array([0.5, -1]), [-1.5, -1, -0.5])


def test_softmax_jacobian_properties():
    p = softmax(np.array([2.0, 1.0, 0.0]))
    J = np.diag(p) - np.outer(p, p)
    assert np.allclose(J.sum(axis=1), 0)
    assert np.allclose(np.linalg.eigvalsh(J), [0, 0.1186, 0.3709], atol=1e-4)
    g = RNG.normal(size=3)
    assert np.allclose(g @ J, p * (g - g @ p))


@pytest.mark.parametrize(("s", "value"), [(0.9, 0.00515), (1.1, 117.39)])
def test_gradient_product_over_fifty_layers(s, value):
    assert s**50 == pytest.approx(value, rel=1e-3)


def test_momentum_terminal_velocity_and_nesterov_speed_up():
    v = 0.0
    for _ in range(1000):
        v = 0.9 * v - 0.1 * 1.0
    assert v == pytest.approx(-1.0)
    A = np.diag([1.0, 0.01])

    def steps(nesterov, mu):
        theta, vel = np.ones(2), np.zeros(2)
        for k in range(1, 5000):
            at = theta + mu * vel if nesterov else theta
            vel = mu * vel - A @ at
            theta = theta + vel
            if np.linalg.norm(theta) < 1e-6:
                return k
        return None

    assert (steps(False, 0.0), steps(False, 0.9), steps(True, 0.9)) == (1375, 264, 208)


def test_gd_stability_limit_and_heavy_ball_limit():
    for eta, diverges in [(0.199, False), (0.201, True)]:
        assert (abs(1 - eta * 10.0) > 1) is diverges
    kappa = 100
    assert math.log(1e-6) / math.log((kappa - 1) / (kappa + 1)) == pytest.approx(690.75, abs=0.01)
    for eta, stable in [(3.7, True), (3.9, False)]:  # heavy ball: eta * lam < 2 (1 + mu)
        theta, vel = 1.0, 0.0
        for _ in range(2000):
            vel = 0.9 * vel - eta * theta
            theta += vel
        assert (abs(theta) < 1) is stable


def test_central_difference_error_and_best_step():
    eps = np.finfo(float).eps
    assert eps ** (1 / 3) == pytest.approx(6.06e-6, rel=1e-2)
    err = abs((math.exp(1e-3) - math.exp(-1e-3)) / 2e-3 - 1)
    assert err == pytest.approx(1e-6 / 6, rel=1e-3)
    assert np.finfo(np.float32).eps ** (2 / 3) == pytest.approx(2.4e-5, rel=0.02)


# -- classical ML ------------------------------------------------------------------------------


def test_knn_bias_variance_figures():
    f = np.sin
    x = np.linspace(-1, 1, 50)
    bias2 = {}
    for k in (1, 10, 40):
        nb = np.argsort(np.abs(x - 0.3), kind="stable")[:k]
        bias2[k] = (f(3 * x[nb]).mean() - f(0.9)) ** 2
    assert bias2[10] == pytest.approx(0.0054, abs=1e-4)
    assert bias2[40] == pytest.approx(0.4012, abs=1e-4)
    assert bias2[10] + 0.25 / 10 + 0.25 == pytest.approx(0.280, abs=1e-3)


def test_soft_threshold_and_ridge_minimisers():
    grid = np.linspace(-4, 4, 160_001)
    for z in (3.0, 0.5, -2.0):
        l1 = grid[np.argmin(0.5 * (grid - z) ** 2 + np.abs(grid))]
        l2 = grid[np.argmin(0.5 * (grid - z) ** 2 + 0.5 * grid**2)]
        assert l1 == pytest.approx(np.sign(z) * max(abs(z) - 1, 0), abs=1e-4)
        assert l2 == pytest.approx(z / 2, abs=1e-4)


def test_normal_equations_example_and_ridge_svd_form():
    X = np.array([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0]])
    y = np.array([1.0, 2.0, 2.0])
    assert np.allclose(np.linalg.solve(X.T @ X, X.T @ y), [7 / 6, 0.5])
    assert np.allclose(np.linalg.solve(X.T @ X + np.eye(2), X.T @ y), [0.8, 0.6])
    A, b = RNG.normal(size=(4, 6)), RNG.normal(size=4)
    U, s, Vt = np.linalg.svd(A, full_matrices=False)
    ridge = np.linalg.solve(A.T @ A + 0.5 * np.eye(6), A.T @ b)
    assert np.allclose(ridge, Vt.T @ (s / (s**2 + 0.5) * (U.T @ b)))


def test_pca_example():
    P = np.array([[2.0, 1.0], [1.0, 2.0], [-2.0, -1.0], [-1.0, -2.0]])
    s = np.linalg.svd(P, compute_uv=False)
    assert np.allclose(s**2, [18, 2])
    assert np.allclose(s**2 / (s**2).sum(), [0.9, 0.1])
    assert np.allclose(np.sort(np.linalg.eigvalsh(np.cov(P.T)))[::-1], s**2 / 3)


def test_conv_shapes_and_receptive_fields():
    def out(n, k, s, p):
        return (n + 2 * p - k) // s + 1

    assert out(224, 7, 2, 3) == 112 and out(112, 3, 2, 1) == 56 and out(224, 16, 16, 0) == 14
    assert pytest.approx(231.2e6, rel=1e-3) == 56 * 56 * 9 * 64 * 128
    r, jump = 1, 1
    for k, s in [(7, 2), (3, 2), (3, 1)]:
        r, jump = r + (k - 1) * jump, jump * s
    assert r == 19
    assert 1 + sum(2**i for i in range(10)) == 1024


def test_svm_margin_and_hinge_example():
    w, b = np.array([3.0, 4.0]), -5.0
    X = np.array([[2.0, 1.0], [1.0, 0.5], [1.0, 1.0]])
    y = np.array([1.0, 1.0, -1.0])
    assert np.allclose(np.maximum(0, 1 - y * (X @ w + b)), [0, 1, 3])
    assert 2 / np.linalg.norm(w) == pytest.approx(0.4)


def test_split_criteria_example():
    def entropy(p):
        return -(p * math.log2(p) + (1 - p) * math.log2(1 - p))

    assert 1 - 0.6 * entropy(1 / 6) == pytest.approx(0.610, abs=1e-3)
    assert pytest.approx(1 / 3) == 0.5 - 0.6 * 2 * (1 / 6) * (5 / 6)


def test_k_means_example():
    pts = np.array([1.0, 3.0, 4.0, 7.0, 9.0, 15.0])
    left, right = pts[:4], pts[4:]
    assert ((left - 1) ** 2).sum() + ((right - 15) ** 2).sum() == 85
    assert ((left - left.mean()) ** 2).sum() + ((right - right.mean()) ** 2).sum() == 36.75
    assert 4 * (1 - left.mean()) ** 2 == 30.25


# -- metrics, probability and generative ---------------------------------------------------------


def test_auc_rank_formula_and_average_precision_example():
    pos, neg = np.array([0.9, 0.8, 0.4]), np.array([0.7, 0.3, 0.2, 0.1])
    pairs = (pos[:, None] > neg[None, :]).mean()
    ranks = np.argsort(np.argsort(np.r_[pos, neg])) + 1
    assert pairs == pytest.approx(11 / 12)
    assert (ranks[:3].sum() - 3 * 4 / 2) / 12 == pytest.approx(11 / 12)
    hits = np.array([1, 0, 0, 1, 1, 0, 0])  # ranking of the average-precision example
    precision = np.cumsum(hits) / np.arange(1, 8)
    assert precision[hits == 1].mean() == pytest.approx(0.7)


def test_ece_example():
    conf = np.array([0.6, 0.6, 0.7, 0.7] + [0.9] * 6)
    correct = np.array([1, 0, 1, 0, 1, 1, 1, 1, 1, 0], dtype=float)
    low, high = conf < 0.75, conf >= 0.75
    ece = sum(m.mean() * abs(correct[m].mean() - conf[m].mean()) for m in (low, high))
    assert ece == pytest.approx(0.10)


def test_pass_at_k_is_unbiased_and_the_plug_in_is_low():
    n, k, p = 10, 5, 0.3
    pmf = [math.comb(n, c) * p**c * (1 - p) ** (n - c) for c in range(n + 1)]
    unbiased = sum(w * (1 - math.comb(n - c, k) / math.comb(n, k)) for c, w in enumerate(pmf))
    plug_in = sum(w * (1 - (1 - c / n) ** k) for c, w in enumerate(pmf))
    assert unbiased == pytest.approx(1 - (1 - p) ** k)
    assert plug_in == pytest.approx(0.760, abs=1e-3)
    assert 1 - math.comb(7, 2) / math.comb(10, 2) == pytest.approx(1 - 42 / 90)


def test_vae_gaussian_kl_and_elbo_gap():
    mu, sigma = 1.0, 0.5
    kl = 0.5 * (mu**2 + sigma**2 - 1 - math.log(sigma**2))
    assert kl == pytest.approx(0.818, abs=1e-3)
    x = 1.5
    log_px = -0.5 * math.log(4 * math.pi) - x**2 / 4
    elbo = -0.5 * math.log(2 * math.pi) - 0.5 * ((x - mu) ** 2 + sigma**2) - kl
    gap_kl = 0.5 * (math.log(0.5 / 0.25) + (0.25 + 0.25**2) / 0.5 - 1)
    assert log_px - elbo == pytest.approx(gap_kl)
    assert log_px == pytest.approx(-1.828, abs=1e-3)


def test_reparameterised_gradient_is_unbiased():
    eps = RNG.normal(size=1_000_000)
    z = 0.5 + 1.2 * eps
    assert (2 * z * eps).mean() == pytest.approx(2.4, abs=0.02)


def test_importance_sampling_tail_estimate():
    true = 0.5 * math.erfc(4 / math.sqrt(2))
    y = RNG.normal(4.0, 1.0, 200_000)
    terms = (y > 4) * np.exp(8 - 4 * y)
    assert terms.mean() == pytest.approx(true, rel=0.03)


def test_bessel_correction_example_and_expectation():
    x = np.array([2, 4, 4, 4, 5, 5, 7, 9], dtype=float)
    assert x.var() == 4.0
    assert x.var(ddof=1) == pytest.approx(32 / 7)
    samples = RNG.normal(0.0, 2.0, size=(200_000, 3))
    assert samples.var(axis=1).mean() == pytest.approx(2 / 3 * 4.0, rel=0.01)


def test_ema_window_and_half_life():
    beta = 0.999
    ages = np.arange(100_000)
    weights = (1 - beta) * beta**ages
    assert (weights * (ages + 1)).sum() == pytest.approx(1 / (1 - beta), rel=1e-6)
    assert math.log(0.5) / math.log(beta) == pytest.approx(692.8, abs=0.05)
    assert 1 - beta**1000 == pytest.approx(0.632, abs=1e-3)


def test_accuracy_standard_errors():
    assert math.sqrt(0.8 * 0.2 / 1000) == pytest.approx(0.01265, abs=1e-5)
    assert 1.96 * math.sqrt(0.7 * 0.3 / 14_042) == pytest.approx(0.0076, abs=1e-4)
    assert 1.96 * math.sqrt(0.25 / 164) == pytest.approx(0.0765, abs=1e-4)
    assert pytest.approx(9604) == 1.96**2 * 0.25 / 0.01**2
    assert math.sqrt(0.69 * 0.31 / 300) == pytest.approx(0.027, abs=1e-3)


def test_gumbel_max_samples_the_softmax():
    z = np.array([1.0, -0.5, 0.3])
    g = -np.log(-np.log(RNG.random((300_000, 3))))
    freq = np.bincount(np.argmax(z + g, axis=1), minlength=3) / 300_000
    assert np.allclose(freq, softmax(z), atol=0.004)


def test_mean_median_example():
    y = np.array([1.0, 2.0, 3.0, 4.0, 100.0])
    assert y.mean() == 22 and np.median(y) == 3
    assert np.abs(y - 22).sum() == 156 and np.abs(y - 3).sum() == 101


def test_log_odds_example():
    odds = 0.25 * math.exp(0.7)
    assert odds / (1 + odds) == pytest.approx(0.3349, abs=1e-4)
    assert pytest.approx(0.112) == 0.2 * 0.8 * 0.7


def test_naive_bayes_example():
    spam = (np.array([3, 2, 0, 1]) + 1) / (6 + 4)
    ham = (np.array([0, 0, 3, 3]) + 1) / (6 + 4)
    assert np.allclose(spam, [0.4, 0.3, 0.1, 0.2])
    s, h = spam[0] * spam[1], ham[0] * ham[1]
    assert s / (s + h) == pytest.approx(0.923, abs=1e-3)


def test_r_squared_example():
    x, y = np.array([1.0, 2.0, 3.0, 4.0]), np.array([2.0, 4.0, 5.0, 4.0])
    fit = 0.7 * x + 2.0
    r2 = 1 - ((y - fit) ** 2).sum() / ((y - y.mean()) ** 2).sum()
    assert r2 == pytest.approx(1 - 2.3 / 4.75)
    assert 1 - ((y - 10) ** 2).sum() / 4.75 == pytest.approx(-32.89, abs=0.01)


def test_total_variance_examples():
    means = np.array([1.0, 1.4, 0.6])
    assert 0.25 + means.var() == pytest.approx(0.3567, abs=1e-4)
    comp = RNG.random(500_000) < 0.5
    mix = np.where(comp, RNG.normal(0, 1, comp.size), RNG.normal(4, 1, comp.size))
    assert mix.var() == pytest.approx(5.0, rel=0.01)


def test_beta_binomial_examples():
    assert (1 + 3) / (1 + 1 + 3) == 0.8
    assert pytest.approx(0.738, abs=1e-3) == 31 / 42
    assert pytest.approx(0.565, abs=1e-3) == 13 / 23


def test_ndcg_example():
    def dcg(rels):
        return sum((2**r - 1) / math.log2(i + 2) for i, r in enumerate(rels))

    rels = [3, 2, 3, 0, 1, 2]
    assert dcg(rels) / dcg(sorted(rels, reverse=True)) == pytest.approx(0.9488, abs=1e-4)


def test_brier_example_and_properness():
    p = np.array([0.9, 0.8, 0.3, 0.6, 0.1])
    y = np.array([1.0, 1.0, 0.0, 0.0, 0.0])
    assert ((p - y) ** 2).mean() == pytest.approx(0.102)
    q, f = 0.3, np.linspace(0, 1, 1001)
    assert f[np.argmin(q * (1 - f) ** 2 + (1 - q) * f**2)] == pytest.approx(q)


def test_adagrad_and_rmsprop_steps():
    G, steps = 0.0, {}
    for t in range(1, 101):
        G += 4.0
        steps[t] = 0.1 * 2.0 / math.sqrt(G)
    assert steps[100] == pytest.approx(0.01)
    v = 0.1 * 4.0
    assert 0.01 * 2 / math.sqrt(v) == pytest.approx(0.0316, abs=1e-4)


def test_bleu_example():
    from collections import Counter

    def ngrams(tokens, n):
        return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))

    ref = ["the", "quick", "brown", "fox", "jumps", "over", "the", "lazy", "dog", "today"]
    cand = ["the", "quick", "brown", "fox", "jumped", "over", "the", "dog"]
    precisions = []
    for n in range(1, 5):
        c, r = ngrams(cand, n), ngrams(ref, n)
        precisions.append(sum(min(k, r[g]) for g, k in c.items()) / sum(c.values()))
    bleu = math.exp(1 - 10 / 8) * math.exp(sum(map(math.log, precisions)) / 4)
    assert precisions == pytest.approx([7 / 8, 4 / 7, 2 / 6, 1 / 5])
    assert bleu == pytest.approx(0.3328, abs=1e-4)


def test_covariance_of_a_linear_map_example():
    S = np.array([[4.0, 2.0], [2.0, 3.0]])
    A = np.array([[1.0, 1.0], [1.0, -1.0]])
    assert np.allclose(A @ S @ A.T, [[11, 1], [1, 3]])
    lam, U = np.linalg.eigh(S)
    assert np.allclose(lam, [1.438, 5.562], atol=1e-3)
    W = np.diag(lam**-0.5) @ U.T
    assert np.allclose(W @ S @ W.T, np.eye(2))


def test_checkpointing_memory_optimum():
    def peak(L, k):
        return math.ceil(L / k) + k

    assert min(range(1, 101), key=lambda k: peak(100, k)) == 10
    assert peak(100, 10) == 20 and peak(100, 4) == peak(100, 25) == 29


def test_curse_of_dimensionality_edges():
    assert pytest.approx(0.631, abs=1e-3) == 0.01 ** (1 / 10)
    assert pytest.approx(0.955, abs=1e-3) == 0.01 ** (1 / 100)


def test_hoeffding_sample_sizes():
    assert math.ceil(math.log(2 / 0.05) / (2 * 0.01**2)) == 18_445
    assert math.ceil(math.log(2 / 0.05) / (2 * 0.05**2)) == 738
    assert pytest.approx(3457.4, abs=0.1) == 1.96**2 * 0.09 / 0.01**2


def test_polynomial_kernel_matches_explicit_features():
    x, z = np.array([1.0, 2.0]), np.array([3.0, 0.0])
    phi = lambda v: np.array([v[0] ** 2, v[1] ** 2, math.sqrt(2) * v[0] * v[1]])  # noqa: E731
    assert phi(x) @ phi(z) == pytest.approx((x @ z) ** 2)
    assert (x @ z) ** 2 == 9
    assert math.exp(-8 / 2) == pytest.approx(0.0183, abs=1e-4)


def test_focal_loss_factors_and_its_optimum_is_pulled_toward_a_half():
    for p_t, factor in [(0.9, 0.01), (0.5, 0.25), (0.1, 0.81)]:
        assert (1 - p_t) ** 2 == pytest.approx(factor)
    p = np.linspace(0.001, 0.999, 99_901)
    for q in (0.2, 0.7, 0.9):
        expected = -q * (1 - p) ** 2 * np.log(p) - (1 - q) * p**2 * np.log(1 - p)
        best = p[np.argmin(expected)]
        assert abs(best - 0.5) < abs(q - 0.5)  # not proper: less confident than q


def test_iou_and_dice_example():
    inter, a, b = 1.0, 4.0, 4.0
    iou = inter / (a + b - inter)
    assert iou == pytest.approx(1 / 7)
    assert 2 * inter / (a + b) == pytest.approx(2 * iou / (1 + iou))
    assert 2 * inter / (a + b) == 0.25
    assert pytest.approx(0.391, abs=1e-3) == 2.25 / (4 + 4 - 2.25)


def test_depthwise_separable_counts():
    k, c_in, c_out = 3, 128, 256
    standard, separable = k * k * c_in * c_out, k * k * c_in + c_in * c_out
    assert (standard, separable) == (294_912, 33_920)
    assert separable / standard == pytest.approx(1 / c_out + 1 / k**2)
    assert 56 * 56 * standard == pytest.approx(924.8e6, rel=1e-3)


def test_mcc_is_the_phi_coefficient():
    tp, fn, fp, tn = 90, 10, 495, 9405
    mcc = (tp * tn - fp * fn) / math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    y = np.r_[np.ones(tp + fn), np.zeros(fp + tn)]
    pred = np.r_[np.ones(tp), np.zeros(fn), np.ones(fp), np.zeros(tn)]
    assert np.corrcoef(y, pred)[0, 1] == pytest.approx(mcc)
    assert mcc == pytest.approx(0.3604, abs=1e-4)


def test_stable_softplus_and_bce_on_logits():
    z = np.linspace(-30, 30, 61)
    stable = np.maximum(z, 0) + np.log1p(np.exp(-np.abs(z)))
    assert np.allclose(stable, np.log1p(np.exp(z)))
    assert np.maximum(800.0, 0) + np.log1p(np.exp(-800.0)) == 800.0
    assert -math.log(1e-7) == pytest.approx(16.1, abs=0.05)  # the clipped-loss ceiling


def test_multilabel_sigmoids_and_the_softmax_cap():
    z = np.array([3.0, 2.0, -2.0])
    assert np.allclose(sigmoid(z), [0.953, 0.881, 0.119], atol=1e-3)
    assert np.allclose(softmax(z), [0.727, 0.268, 0.005], atol=1e-3)


def test_bootstrap_coverage_and_forest_variance():
    assert pytest.approx(math.exp(-1), abs=2e-4) == (1 - 1 / 1000) ** 1000
    assert pytest.approx(0.307) == 0.3 + 0.7 / 100
    assert pytest.approx(0.109) == 0.1 + 0.9 / 100


def test_jensen_two_point_example():
    assert math.log(5) - (math.log(1) + math.log(9)) / 2 == pytest.approx(math.log(5 / 3))
    assert math.log(5) == pytest.approx(1.609, abs=1e-3)
