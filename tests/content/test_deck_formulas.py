"""The bundled deck: every card judged as declared, and its formulas checked by computation.

A wrong formula in an interview deck does harm, so where a card's claim can be
computed, it is computed here with numpy, independently of the judge.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from quizzer.answers import CardJudge
from tests.conftest import bundled_deck

DECK = bundled_deck()
RNG = np.random.default_rng(12345)


def test_the_deck_is_big_enough_and_loads_cleanly():
    assert DECK.problems == []
    assert len(DECK.cards) >= 40
    assert len({c.deck for c in DECK.cards}) >= 5


EXAMPLES = [
    (loaded.card, name, example.answer, example.correct)
    for loaded in DECK.cards
    for name, blank in loaded.card.blanks.items()
    for example in blank.examples
]


@pytest.mark.parametrize(
    ("card", "blank", "answer", "correct"),
    EXAMPLES,
    ids=[f"{c.id}-{b}-{a}" for c, b, a, _ in EXAMPLES],
)
def test_every_example_judges_as_declared(card, blank, answer, correct):
    assert CardJudge(card).judge(blank, answer).correct is correct


def test_every_related_card_exists():
    ids = {c.id for c in DECK.cards}
    for loaded in DECK.cards:
        assert set(loaded.card.related) <= ids, loaded.id


def softmax(z, axis=-1):
    shifted = z - z.max(axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / e.sum(axis=axis, keepdims=True)


# -- transformers ---------------------------------------------------------------------


@pytest.mark.parametrize("d_k", [16, 64, 256])
def test_dot_product_variance_is_d_k(d_k):
    q = RNG.standard_normal((40_000, d_k))
    k = RNG.standard_normal((40_000, d_k))
    scores = (q * k).sum(axis=1)
    assert scores.var() == pytest.approx(d_k, rel=0.05)
    assert (scores / math.sqrt(d_k)).var() == pytest.approx(1, rel=0.05)


def test_causal_mask_pairs_and_zero_weights():
    n = 9
    mask = np.triu(np.full((n, n), -np.inf), k=1)
    weights = softmax(RNG.standard_normal((n, n)) + mask)
    assert np.count_nonzero(np.isfinite(mask)) == n * (n + 1) // 2
    assert np.all(weights[np.triu_indices(n, k=1)] == 0)
    assert np.allclose(weights.sum(axis=1), 1)


def test_transformer_block_parameters_match_explicit_shapes():
    d = 768
    shapes = {
        "W_Q": (d, d),
        "W_K": (d, d),
        "W_V": (d, d),
        "W_O": (d, d),
        "W_up": (d, 4 * d),
        "W_down": (4 * d, d),
    }
    attention = sum(math.prod(shapes[k]) for k in ("W_Q", "W_K", "W_V", "W_O"))
    mlp = sum(math.prod(shapes[k]) for k in ("W_up", "W_down"))
    assert (attention, mlp, attention + mlp) == (4 * d * d, 8 * d * d, 12 * d * d)
    # GPT-3: 96 layers of width 12288 come to about 174B non-embedding weights.
    assert pytest.approx(174e9, rel=0.01) == 12 * 96 * 12288**2


def test_multi_head_projections_do_not_depend_on_head_count():
    d_model = 512
    for h in (1, 8, 16):
        d_k = d_model // h
        per_head = 3 * h * d_model * d_k  # Q, K, V slices
        assert per_head + d_model * d_model == 4 * d_model**2


def test_llama2_7b_kv_cache_at_4096_tokens_is_2_gib():
    layers, kv_heads, d_head, tokens, batch, fp16 = 32, 32, 128, 4096, 1, 2
    cache = 2 * layers * kv_heads * d_head * tokens * batch * fp16
    assert cache == 2 * 2**30


def test_sinusoid_shift_is_a_rotation_independent_of_position():
    d, i, k = 64, 5, 7
    omega = 1 / 10000 ** (2 * i / d)
    for pos in (0, 13, 400):
        here = np.array([math.sin(omega * pos), math.cos(omega * pos)])
        there = np.array([math.sin(omega * (pos + k)), math.cos(omega * (pos + k))])
        a = omega * k
        rotation = np.array([[math.cos(a), math.sin(a)], [-math.sin(a), math.cos(a)]])
        assert np.allclose(rotation @ here, there)


def rotate(vector, angle):
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s], [s, c]]) @ vector


def test_rope_scores_depend_on_the_offset_only():
    theta = 10000 ** (-2 * 3 / 64)
    q, k = RNG.standard_normal(2), RNG.standard_normal(2)
    reference = rotate(q, 2 * theta) @ rotate(k, 7 * theta)
    for shift in (0, 10, 1000):
        m, n = 2 + shift, 7 + shift
        assert rotate(q, m * theta) @ rotate(k, n * theta) == pytest.approx(reference)
    assert q @ rotate(k, (7 - 2) * theta) == pytest.approx(reference)


def test_gqa_reduction():
    h, g, kv_heads_full = 64, 8, 64
    assert kv_heads_full / g == h / g == 8


def test_attention_score_cost():
    n, d = 128, 64
    q, k = RNG.standard_normal((n, d)), RNG.standard_normal((n, d))
    assert (q @ k.T).size == n * n
    # n² dot products of length d: d multiplies and d adds each (counting the first add).
    assert n * n * 2 * d == 2 * n**2 * d


# -- training ----------------------------------------------------------------------------


def test_softmax_is_unchanged_by_adding_a_constant():
    z = RNG.standard_normal((4, 10)) * 5
    assert np.allclose(softmax(z + 123.4), softmax(z))
    big = np.array([[1000.0, 1001.0, 999.0]])
    assert np.all(np.isfinite(softmax(big)))  # the max-shift keeps exp() finite


def test_softmax_cross_entropy_gradient_is_p_minus_y():
    z = RNG.standard_normal(7)
    y = np.zeros(7)
    y[3] = 1

    def loss(logits):
        return -np.sum(y * np.log(softmax(logits)))

    eps = 1e-6
    numeric = np.array([(loss(z + eps * e) - loss(z - eps * e)) / (2 * eps) for e in np.eye(7)])
    assert np.allclose(numeric, softmax(z) - y, atol=1e-6)


def test_logistic_gradient_is_sigmoid_minus_y():
    def sigmoid(x):
        return 1 / (1 + np.exp(-x))

    for z, y in [(0.3, 1), (-2.0, 0), (4.0, 0)]:

        def loss(v, y=y):
            return -(y * np.log(sigmoid(v)) + (1 - y) * np.log(1 - sigmoid(v)))

        numeric = (loss(z + 1e-6) - loss(z - 1e-6)) / 2e-6
        assert numeric == pytest.approx(sigmoid(z) - y, abs=1e-6)
        slope = (sigmoid(z + 1e-6) - sigmoid(z - 1e-6)) / 2e-6
        assert slope == pytest.approx(sigmoid(z) * (1 - sigmoid(z)), abs=1e-6)


def test_dropout_scaling_keeps_the_expectation():
    p, x = 0.3, 2.5
    kept = RNG.random(1_000_000) >= p
    out = kept * x / (1 - p)
    assert out.mean() == pytest.approx(x, rel=0.01)


def test_adam_first_step_is_about_alpha_sign_g():
    beta1, beta2, alpha, eps = 0.9, 0.999, 1e-3, 1e-8
    g = np.array([3.0, -0.01, 1e-4])
    m = (1 - beta1) * g
    v = (1 - beta2) * g**2
    m_hat, v_hat = m / (1 - beta1), v / (1 - beta2)
    assert np.allclose(m_hat, g) and np.allclose(v_hat, g**2)
    step = alpha * m_hat / (np.sqrt(v_hat) + eps)
    assert np.allclose(step, alpha * np.sign(g), rtol=1e-3)


def test_l2_in_sgd_is_multiplicative_decay():
    theta, grad, eta, lam = 1.7, 0.4, 0.1, 0.01
    assert theta - eta * (grad + lam * theta) == pytest.approx((1 - eta * lam) * theta - eta * grad)


def test_clipping_caps_the_norm_and_keeps_direction():
    c = 1.0
    for scale in (0.1, 5.0, 100.0):
        g = RNG.standard_normal(10) * scale
        norm = np.linalg.norm(g)
        clipped = g * min(1, c / norm)
        assert np.linalg.norm(clipped) <= c + 1e-12 or np.allclose(clipped, g)
        assert np.allclose(clipped / np.linalg.norm(clipped), g / norm)


def test_cosine_schedule_end_points_and_midpoint():
    hi, lo, S = 3e-4, 3e-5, 1000

    def eta(s):
        return lo + (hi - lo) * (1 + math.cos(math.pi * s / S)) / 2

    assert eta(0) == pytest.approx(hi) and eta(S) == pytest.approx(lo)
    assert eta(S / 2) == pytest.approx((hi + lo) / 2)


def test_label_smoothing_targets_sum_to_one():
    eps, K = 0.1, 7
    targets = np.full(K, eps / K)
    targets[2] = 1 - eps + eps / K
    assert targets.sum() == pytest.approx(1)


def test_batch_mean_variance_is_sigma_squared_over_m():
    sigma, m = 2.0, 8
    means = RNG.normal(0, sigma, size=(200_000, m)).mean(axis=1)
    assert means.var() == pytest.approx(sigma**2 / m, rel=0.02)


def test_temperature_ratio_and_tanh_identity():
    z = np.array([2.0, 0.5])
    tau = 0.7
    p = softmax(z / tau)
    assert p[0] / p[1] == pytest.approx(math.exp((z[0] - z[1]) / tau))
    x = np.linspace(-4, 4, 33)
    assert np.allclose(np.tanh(x), 2 / (1 + np.exp(-2 * x)) - 1)


def test_gradient_accumulation_matches_one_big_batch():
    data = RNG.standard_normal((12, 3))
    w = RNG.standard_normal(3)

    def grad(batch):  # gradient of the mean of 0.5 (x·w)^2
        return (batch * (batch @ w)[:, None]).mean(axis=0)

    micro = [data[i : i + 4] for i in range(0, 12, 4)]
    accumulated = sum(grad(b) for b in micro) / len(micro)
    assert np.allclose(accumulated, grad(data))


# -- initialisation ------------------------------------------------------------------------


def test_xavier_uniform_limit_gives_the_glorot_variance():
    n_in, n_out = 300, 100
    limit = math.sqrt(6 / (n_in + n_out))
    w = RNG.uniform(-limit, limit, size=1_000_000)
    assert w.var() == pytest.approx(2 / (n_in + n_out), rel=0.01)


def test_relu_halves_the_second_moment_and_he_keeps_it():
    y = RNG.standard_normal(1_000_000)
    assert np.mean(np.maximum(y, 0) ** 2) == pytest.approx(np.mean(y**2) / 2, rel=0.01)
    n_in, layers = 256, 20
    x = RNG.standard_normal((2000, n_in))
    for _ in range(layers):
        w = RNG.normal(0, math.sqrt(2 / n_in), size=(n_in, n_in))
        x = np.maximum(x @ w, 0)
    assert 0.2 < np.mean(x**2) < 5  # neither vanished nor exploded after 20 layers


# -- probability and information ----------------------------------------------------------------


def test_bayes_rule_on_the_screening_example():
    prior, sensitivity, false_positive = 1e-4, 0.99, 0.01
    evidence = sensitivity * prior + false_positive * (1 - prior)
    posterior = sensitivity * prior / evidence
    assert posterior == pytest.approx(0.0098, rel=0.01)


def test_variance_of_a_sum_with_covariance():
    cov = np.array([[2.0, 0.7], [0.7, 1.0]])
    xy = RNG.multivariate_normal([0, 0], cov, size=500_000)
    assert (xy[:, 0] + xy[:, 1]).var() == pytest.approx(2 + 1 + 2 * 0.7, rel=0.02)
    assert (3 * xy[:, 0]).var() == pytest.approx(9 * 2, rel=0.02)


def test_kl_between_equal_variance_gaussians():
    mu1, mu2, sigma = 0.3, -1.2, 0.8
    x = np.linspace(-12, 12, 200_001)
    p = np.exp(-((x - mu1) ** 2) / (2 * sigma**2)) / (sigma * math.sqrt(2 * math.pi))
    q = np.exp(-((x - mu2) ** 2) / (2 * sigma**2)) / (sigma * math.sqrt(2 * math.pi))
    integral = np.trapezoid(p * np.log(p / q), x)
    assert integral == pytest.approx((mu1 - mu2) ** 2 / (2 * sigma**2), rel=1e-6)


def test_entropy_and_perplexity_of_a_uniform_distribution():
    K = 50
    p = np.full(K, 1 / K)
    entropy = -np.sum(p * np.log(p))
    assert entropy == pytest.approx(math.log(K))
    assert math.exp(entropy) == pytest.approx(K)  # perplexity of a uniform model
    coin = 0.5
    assert -coin * math.log(coin) - (1 - coin) * math.log(1 - coin) == pytest.approx(math.log(2))


def test_gaussian_nll_is_minimised_at_the_mse():
    residuals = RNG.standard_normal(1000) * 1.3
    mse = np.mean(residuals**2)
    sigmas = np.linspace(0.5, 3, 2001)
    nll = [np.mean(residuals**2 / (2 * s**2) + np.log(s)) for s in sigmas]
    assert sigmas[int(np.argmin(nll))] ** 2 == pytest.approx(mse, rel=0.01)


# -- metrics and scale ---------------------------------------------------------------------------


def test_f1_forms_agree():
    for _ in range(100):
        tp, fp, fn = RNG.integers(1, 1000, size=3)
        precision, recall = tp / (tp + fp), tp / (tp + fn)
        f1 = 2 * precision * recall / (precision + recall)
        assert f1 == pytest.approx(2 * tp / (2 * tp + fp + fn))
        assert min(precision, recall) <= f1 <= max(precision, recall)


def test_chinchilla_point_is_consistent_with_6nd():
    compute = 5.76e23  # Chinchilla's budget
    n = math.sqrt(compute / 120)
    d = 20 * n
    assert 6 * n * d == pytest.approx(compute)
    assert n == pytest.approx(70e9, rel=0.05) and d == pytest.approx(1.4e12, rel=0.05)


def test_lora_update_shape_and_parameter_count():
    d, k, r = 64, 48, 4
    b, a = np.zeros((d, r)), RNG.standard_normal((r, k))
    assert (b @ a).shape == (d, k) and np.all(b @ a == 0)  # starts at the pretrained W
    assert b.size + a.size == r * (d + k)
