"""Figures of the cards added for issue 23's missing topics (GANs, flows,
v-prediction, VQ-VAE, pre-training objectives, cross/linear attention, SSMs,
decoding penalties and constraints, SFT masking, reward models, DPO variants,
QK-norm, muP, noise scale, activation memory, autodiff, batch-norm backward),
recomputed independently of the cards' own snippets, plus the depth bar for
each of them.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from .conftest import bundled_deck

NEW_CARDS = {
    "gan-non-saturating-loss": "generative",
    "flow-matching-velocity": "generative",
    "v-prediction": "generative",
    "vq-vae-commitment": "generative",
    "normalizing-flow-log-density": "generative",
    "mlm-vs-causal-lm": "training",
    "sft-loss-masking": "training",
    "cross-attention": "architecture",
    "linear-attention": "architecture",
    "ssm-zoh-discretisation": "architecture",
    "qk-norm": "architecture",
    "repetition-penalties": "decoding",
    "constrained-decoding": "decoding",
    "process-vs-outcome-rewards": "alignment",
    "simpo-ipo": "alignment",
    "mup-learning-rate": "scale",
    "critical-batch-size": "scale",
    "activation-memory": "scale",
    "forward-vs-reverse-autodiff": "backprop",
    "batchnorm-backward": "backprop",
}
LOADED = {loaded.card.id: loaded for loaded in bundled_deck().cards}
ARXIV = re.compile(r"^https://arxiv\.org/abs/\d{4}\.\d{4,5}$")
RNG = np.random.default_rng(20261201)


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def softmax(z):
    e = np.exp(z - np.max(z))
    return e / e.sum()


# -- the depth bar, for each new card ------------------------------------------------


@pytest.mark.parametrize("card_id", sorted(NEW_CARDS))
def test_new_card_is_in_its_deck_at_the_depth_bar(card_id):
    loaded = LOADED[card_id]
    card = loaded.card
    assert loaded.deck == NEW_CARDS[card_id]
    assert card.level in (1, 2, 3)
    assert card.tags
    assert len(card.explanation.split()) >= 150
    assert card.worked_example and "assert" in card.code
    assert len(card.follow_ups) >= 3
    pushback = ("what if", "why not", "n't", "instead")
    assert any(any(word in f.question.lower() for word in pushback) for f in card.follow_ups)
    assert len(card.red_flags) >= 2 and len(card.bullets) >= 3
    for blank in card.blanks.values():
        assert len(blank.wrong) >= 2 and len(blank.examples) >= 3
        assert any(e.correct and e.answer != blank.answer for e in blank.examples)
        assert any(not e.correct for e in blank.examples)
        if blank.also:  # a word blank: five paraphrases an interviewer accepts
            paraphrases = {
                e.answer for e in blank.examples if e.correct and e.answer != blank.answer
            }
            assert len(paraphrases) >= 5
    for source in card.sources:
        if "arxiv.org" in source.url:
            assert ARXIV.match(source.url) and source.authors and source.year
    assert set(card.related) <= set(LOADED)


def test_new_cards_mix_levels_mostly_core_and_advanced():
    levels = [LOADED[card_id].card.level for card_id in NEW_CARDS]
    assert len(levels) >= 20
    assert set(levels) == {1, 2, 3}
    assert sum(1 for level in levels if level >= 2) >= 15


# -- generative ------------------------------------------------------------------------


def test_gan_optimal_discriminator_and_saturation():
    p_data, p_g = 0.3, 0.1
    grid = np.linspace(0.001, 0.999, 99_801)
    best = grid[np.argmax(p_data * np.log(grid) + p_g * np.log(1 - grid))]
    assert best == pytest.approx(0.75, abs=1e-4)
    # at p_g = p_data the value is 2 log(1/2) = -log 4
    assert 2 * math.log(0.5) == pytest.approx(-1.386, abs=1e-3)
    d = sigmoid(-5.0)
    assert d == pytest.approx(0.0067, abs=5e-5)
    # d/dl log(1 - sigmoid(l)) = -sigmoid(l); d/dl -log sigmoid(l) = -(1 - sigmoid(l))
    minimax, non_saturating = -d, -(1 - d)
    assert non_saturating == pytest.approx(-0.993, abs=5e-4)
    assert non_saturating / minimax == pytest.approx(148, abs=0.5)


def test_gan_value_at_the_optimal_discriminator_is_minus_log4_plus_2jsd():
    p = np.array([0.5, 0.3, 0.2])
    q = np.array([0.2, 0.2, 0.6])
    d = p / (p + q)
    value = (p * np.log(d)).sum() + (q * np.log(1 - d)).sum()
    m = (p + q) / 2
    jsd = 0.5 * (p * np.log(p / m)).sum() + 0.5 * (q * np.log(q / m)).sum()
    assert value == pytest.approx(-math.log(4) + 2 * jsd)


def test_flow_matching_pair_and_its_straight_path():
    x0, x1, t = -1.2, 2.0, 0.25
    xt = (1 - t) * x0 + t * x1
    assert xt == pytest.approx(-0.4) and x1 - x0 == pytest.approx(3.2)
    assert (x1 - xt) / (1 - t) == pytest.approx(3.2)
    assert xt + 0.75 * 3.2 == pytest.approx(2.0)


def test_flow_matching_regression_minimiser_is_the_conditional_mean_velocity():
    # two pairs whose paths cross at t = 0.5, x = 0: the least-squares target there
    pairs = [(-1.0, 1.0), (1.0, -1.0), (-1.0, 3.0)]
    velocities = np.array([x1 - x0 for x0, x1 in pairs])
    through_origin = [(1 - 0.5) * x0 + 0.5 * x1 == 0 for x0, x1 in pairs]
    assert through_origin == [True, True, False]
    candidates = np.linspace(-3, 3, 6001)
    losses = [((c - velocities[:2]) ** 2).sum() for c in candidates]
    assert candidates[int(np.argmin(losses))] == pytest.approx(velocities[:2].mean(), abs=1e-3)


def test_v_prediction_numbers_and_inverse():
    alpha = 0.6
    sigma = math.sqrt(1 - alpha**2)
    x0, eps = 1.5, -0.5
    xt = alpha * x0 + sigma * eps
    v = alpha * eps - sigma * x0
    assert sigma == pytest.approx(0.8) and xt == pytest.approx(0.5) and v == pytest.approx(-1.5)
    assert alpha * xt - sigma * v == pytest.approx(x0)
    assert sigma * xt + alpha * v == pytest.approx(eps)
    assert (alpha * xt - x0) / sigma == pytest.approx(v)


def test_v_loss_is_the_x0_loss_weighted_by_snr_plus_one():
    alpha = 0.3
    sigma = math.sqrt(1 - alpha**2)
    x0, eps = RNG.standard_normal(5), RNG.standard_normal(5)
    xt = alpha * x0 + sigma * eps
    x0_hat = x0 + 0.1 * RNG.standard_normal(5)
    v = alpha * eps - sigma * x0
    eps_hat = (xt - alpha * x0_hat) / sigma
    v_hat = alpha * eps_hat - sigma * x0_hat
    snr = alpha**2 / sigma**2
    assert ((v_hat - v) ** 2).sum() == pytest.approx((1 + snr) * ((x0_hat - x0) ** 2).sum())


def test_vq_vae_worked_example():
    codebook = np.array([-1.0, 0.5, 2.0])
    z_e, beta = 0.8, 0.25
    distances = np.abs(codebook - z_e)
    assert np.allclose(distances, [1.8, 0.3, 1.2])
    e = codebook[np.argmin(distances)]
    assert e == 0.5
    assert (z_e - e) ** 2 == pytest.approx(0.09)
    assert -2 * (z_e - e) == pytest.approx(-0.6)
    assert beta * (z_e - e) ** 2 == pytest.approx(0.0225)
    assert 2 * beta * (z_e - e) == pytest.approx(0.15)
    assert pytest.approx(1.35) == 1.2 + 0.15


def test_affine_flow_log_density_matches_the_gaussian():
    a, b, x = 2.0, 1.0, 4.0
    z = (x - b) / a
    log_pz = -(z**2) / 2 - 0.5 * math.log(2 * math.pi)
    assert z == 1.5 and log_pz == pytest.approx(-2.044, abs=5e-4)
    assert math.log(a) == pytest.approx(0.693, abs=5e-4)
    assert log_pz - math.log(a) == pytest.approx(-2.737, abs=5e-4)
    assert -(9 / 8) - 0.5 * math.log(2 * math.pi * 4) == pytest.approx(-2.737, abs=5e-4)
    assert 0.5 * math.log(2 * math.pi * 4) == pytest.approx(1.612, abs=5e-4)


# -- training --------------------------------------------------------------------------


def test_mlm_and_causal_target_counts():
    n = 512
    assert 0.15 * n == pytest.approx(76.8) and round(0.15 * n) == 77
    assert pytest.approx(0.12) == 0.15 * 0.8 and 0.12 * n == pytest.approx(61.44)
    assert round(0.15 * 0.1 * n) == 8
    assert pytest.approx(0.015) == 0.15 * 0.1
    assert (n - 1) / (0.15 * n) == pytest.approx(6.65, abs=0.01)


def test_sft_masked_and_unmasked_losses():
    P, R, a, b = 300, 100, 0.8, 2.0
    assert (P * b + R * a) / (P + R) == pytest.approx(1.70)
    assert (P * b + R * a) == pytest.approx(680)
    assert R * a / (P + R) == pytest.approx(0.20)
    # ignore_index semantics: masked positions leave numerator and denominator
    nll = np.r_[np.full(P, b), np.full(R, a)]
    keep = np.r_[np.zeros(P, bool), np.ones(R, bool)]
    assert nll[keep].mean() == pytest.approx(a)


# -- architecture ----------------------------------------------------------------------


def test_cross_attention_shapes():
    n, m, d, heads = 5, 7, 512, 8
    q = RNG.standard_normal((n, d // heads))
    k = RNG.standard_normal((m, d // heads))
    assert (q @ k.T).shape == (n, m) and n * m == 35
    assert heads * (d // heads) == d


def test_linear_attention_costs_and_states():
    n, d = 32_768, 128
    assert n * n * d == pytest.approx(1.37e11, abs=0.005e11)
    assert n * d * d == pytest.approx(5.4e8, abs=0.05e8)
    assert (n * n * d) / (n * d * d) == 256
    assert d * d == 16_384
    assert 2 * n * d == pytest.approx(8.4e6, abs=0.05e6)


def test_linear_attention_equals_its_recurrence():
    n, dk, dv = 16, 4, 3
    phi = lambda x: np.where(x > 0, x + 1, np.exp(x))  # noqa: E731 - elu + 1
    q, k, v = (RNG.standard_normal((n, w)) for w in (dk, dk, dv))
    weights = np.tril(phi(q) @ phi(k).T)
    parallel = weights @ v / weights.sum(axis=1, keepdims=True)
    state, norm = np.zeros((dk, dv)), np.zeros(dk)
    for i in range(n):
        state += np.outer(phi(k[i]), v[i])
        norm += phi(k[i])
        assert np.allclose(phi(q[i]) @ state / (phi(q[i]) @ norm), parallel[i])
    assert state.size == dk * dv


def test_ssm_zero_order_hold_numbers():
    A, B, dt = -1.0, 2.0, 0.1
    a_bar = math.exp(dt * A)
    b_bar = (math.exp(dt * A) - 1) / A * B
    assert a_bar == pytest.approx(0.9048, abs=5e-5)
    assert b_bar == pytest.approx(0.1903, abs=5e-5)
    assert dt * B == pytest.approx(0.2)
    assert b_bar / (1 - a_bar) == pytest.approx(2.0) == -B / A
    assert math.exp(-5.0) == pytest.approx(0.0067, abs=5e-5)
    assert (math.exp(-5.0) - 1) / A * B == pytest.approx(1.987, abs=5e-4)


def test_ssm_zero_order_hold_is_exact_for_a_constant_input():
    A, B, dt, x = -0.7, 1.3, 0.4, 0.9
    h0 = 0.5
    exact = math.exp(A * dt) * h0 + (math.exp(A * dt) - 1) / A * B * x  # closed form
    fine, steps = h0, 200_000
    for _ in range(steps):
        fine += dt / steps * (A * fine + B * x)
    assert fine == pytest.approx(exact, abs=1e-5)
    assert abs(1 + A * 3.0) > 1  # Euler with dt > 2/|A| is unstable, ZOH is not
    assert 0 < math.exp(A * 3.0) < 1


def test_qk_norm_bounds_and_examples():
    d = 128
    assert math.sqrt(d) == pytest.approx(11.31, abs=5e-3)
    q = RNG.standard_normal(d)
    k = RNG.standard_normal(d)
    rms = lambda x: x / np.sqrt(np.mean(x**2))  # noqa: E731
    assert abs(rms(q) @ rms(k)) / math.sqrt(d) <= math.sqrt(d)
    assert 900 / math.sqrt(d) == pytest.approx(79.5, abs=0.05)
    assert math.exp(-math.sqrt(d)) == pytest.approx(1.2e-5, rel=0.05)
    assert 10 * math.cos(math.pi / 3) == pytest.approx(5.0)


# -- decoding --------------------------------------------------------------------------


def test_repetition_penalty_example():
    logits = np.array([3.0, 1.0, -1.0])
    counts = np.array([2, 0, 1])
    adjusted = logits - counts * 0.5 - (counts > 0) * 0.3
    assert np.allclose(adjusted, [1.7, 1.0, -1.8])
    assert np.allclose(softmax(logits), [0.867, 0.117, 0.016], atol=5e-4)
    after = softmax(adjusted)
    assert np.allclose(after, [0.655, 0.325, 0.020], atol=5e-4)
    assert after[2] > softmax(logits)[2]  # C's share rises despite its own penalty
    assert pytest.approx(2.5) == 3.0 / 1.2 and pytest.approx(-1.2) == -1.0 * 1.2
    assert -1.0 / 1.2 > -1.0  # dividing a negative logit would raise it


def test_constrained_decoding_renormalisation():
    p = np.array([0.30, 0.40, 0.10, 0.15, 0.05])
    allowed = np.array([True, False, False, False, True])
    assert p.sum() == pytest.approx(1)
    masked = softmax(np.where(allowed, np.log(p), -np.inf))
    assert p[allowed].sum() == pytest.approx(0.35)
    assert np.allclose(masked[allowed], [0.857, 0.143], atol=5e-4)
    assert np.argmax(p) == 1 and np.argmax(masked) == 0


# -- alignment -------------------------------------------------------------------------


def test_prm_product_scores():
    assert pytest.approx(0.599, abs=5e-4) == 0.95**10
    assert pytest.approx(0.590, abs=5e-4) == 0.9**5


def test_simpo_and_ipo_example():
    beta, gamma = 2.0, 1.0
    r_w, r_l = beta * -10 / 20, beta * -30 / 50
    assert r_w == pytest.approx(-1.0) and r_l == pytest.approx(-1.2)
    loss = -math.log(sigmoid(r_w - r_l - gamma))
    assert r_w - r_l - gamma == pytest.approx(-0.8)
    assert loss == pytest.approx(1.171, abs=5e-4)
    target = 1 / (2 * 0.1)
    assert target == pytest.approx(5.0)
    assert (3 - target) ** 2 == pytest.approx(4) and 2 * (3 - target) == pytest.approx(-4)


# -- scale -----------------------------------------------------------------------------


def test_mup_transfer_numbers():
    assert pytest.approx(6.25e-4) == 1e-2 * 256 / 4096
    assert 4096 / 256 == 16
    # an update with entries +-eta aligned with its input moves the output by eta * sum|x|,
    # which grows with width at a fixed eta and stays put at eta * d0 / d
    x_small, x_big = RNG.standard_normal(256), RNG.standard_normal(4096)
    fixed = (1e-2 * np.sign(x_big)) @ x_big / ((1e-2 * np.sign(x_small)) @ x_small)
    scaled = (6.25e-4 * np.sign(x_big)) @ x_big / ((1e-2 * np.sign(x_small)) @ x_small)
    assert fixed == pytest.approx(16, rel=0.1)
    assert scaled == pytest.approx(1, rel=0.1)


def test_critical_batch_size_numbers():
    b_simple = 4000 / 2**2
    frac = lambda b: b / (b + b_simple)  # noqa: E731
    assert b_simple == 1000
    assert frac(100) == pytest.approx(0.091, abs=5e-4)
    assert frac(1000) == 0.5
    assert frac(10_000) == pytest.approx(0.909, abs=5e-4)
    assert frac(10_000) / frac(1000) == pytest.approx(1.8, abs=0.05)
    assert frac(1000) / frac(100) == pytest.approx(5.5)
    steps = lambda b: 1 + b_simple / b  # noqa: E731 - S / S_min
    examples = lambda b: 1 + b / b_simple  # noqa: E731 - E / E_min
    assert steps(b_simple) == 2 and examples(b_simple) == 2
    for b in (30.0, 1000.0, 3e4):
        assert (steps(b) - 1) * (examples(b) - 1) == pytest.approx(1)


def test_batch_gradient_norm_identity():
    dim, b = 50, 8
    g = RNG.standard_normal(dim) * 0.2
    cov_std = 0.7
    batches = g + RNG.standard_normal((20_000, b, dim)).mean(axis=1) * cov_std
    expected = (g**2).sum() + dim * cov_std**2 / b
    assert ((batches**2).sum(axis=1)).mean() == pytest.approx(expected, rel=0.02)


def test_activation_memory_gpt3_layer():
    s, b, h, a = 2048, 1, 12288, 96
    sbh = s * b * h
    assert 11 + 19 + 4 == 34
    assert sbh == 25_165_824 and 5 * a * s / h == 80
    per_layer = 34 * sbh + 5 * a * s * s * b
    assert per_layer == pytest.approx(2.87e9, rel=2e-3)
    assert per_layer * 96 == pytest.approx(275e9, rel=2e-3)
    assert pytest.approx(0.70, abs=0.005) == 80 / 114
    assert 34 * sbh / 8 == pytest.approx(107e6, rel=3e-3)
    assert 34 * sbh / 8 * 96 == pytest.approx(10.3e9, rel=5e-3)


# -- backprop --------------------------------------------------------------------------


def test_autodiff_example_jacobian():
    x, y = 1.0, 2.0
    jac = np.array([[y, x], [math.cos(x), 0.0], [1.0, 2 * y]])
    assert np.allclose(jac, [[2, 1], [0.5403, 0], [1, 4]], atol=5e-5)
    assert jac.shape == (3, 2)  # 2 columns by JVP, 3 rows by VJP


def test_batchnorm_backward_example_and_jacobian():
    x = np.array([1.0, 2.0, 4.0])
    gamma, g = 2.0, np.array([1.0, 0.0, -1.0])
    n = x.size
    mu, var = x.mean(), x.var()
    sigma = math.sqrt(var)
    xhat = (x - mu) / sigma
    assert mu == pytest.approx(2.333, abs=5e-4) and var == pytest.approx(14 / 9)
    assert sigma == pytest.approx(1.247, abs=5e-4)
    assert np.allclose(xhat, [-1.069, -0.267, 1.336], atol=5e-4)
    c = (g * xhat).mean()
    assert c == pytest.approx(-0.802, abs=5e-4)
    # the full Jacobian of xhat, then the chain rule: independent of the card's formula
    jac = (np.eye(n) - 1 / n - np.outer(xhat, xhat) / n) / sigma
    dx = jac.T @ (gamma * g)
    assert np.allclose(dx, gamma / sigma * (g - g.mean() - xhat * c))
    assert np.allclose(dx, [0.229, -0.344, 0.115], atol=5e-4)
    assert 3 * c == pytest.approx(-2.405, abs=5e-4) and g.sum() == 0
