"""The transformer, LLM, alignment, decoding and systems decks: depth and formulas.

Two kinds of checks. First, every card in these decks meets the deck's quality
bar (a real explanation, a worked example, runnable code, three follow-ups,
cited sources), which ``validate --strict`` does not measure. Second, every
number a card prints and every formula it teaches is recomputed here with
numpy, independently of the card's own code and of the judge.
"""

from __future__ import annotations

import itertools
import math
import re

import numpy as np
import pytest

from tests.conftest import bundled_deck

DECKS = ("ml", "scale", "alignment", "decoding", "systems")
CARDS = [loaded.card for loaded in bundled_deck().cards if loaded.deck in DECKS]
ALL_IDS = {loaded.card.id for loaded in bundled_deck().cards}
RNG = np.random.default_rng(20261130)
ARXIV = re.compile(r"^https://arxiv\.org/abs/\d{4}\.\d{4,5}$")


def softmax(z, axis=-1):
    shifted = z - z.max(axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / e.sum(axis=axis, keepdims=True)


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


# -- the quality bar --------------------------------------------------------------------


def test_the_decks_are_loaded():
    assert len(CARDS) >= 14


@pytest.mark.parametrize("card", CARDS, ids=lambda card: card.id)
def test_card_meets_the_depth_bar(card):
    assert card.explanation and len(card.explanation.split()) >= 150, "explanation < 150 words"
    assert card.worked_example and card.code, "worked_example and code are required"
    assert "assert" in card.code
    assert len(card.follow_ups) >= 3
    pushback = ("what if", "why not", "n't", "instead")  # a push-back challenges the answer
    assert any(any(word in f.question.lower() for word in pushback) for f in card.follow_ups)
    assert len(card.red_flags) >= 2 and len(card.bullets) >= 3
    for blank in card.blanks.values():
        assert len(blank.wrong) >= 2 and len(blank.examples) >= 3
        assert any(e.correct and e.answer != blank.answer for e in blank.examples)
        assert any(not e.correct for e in blank.examples)


@pytest.mark.parametrize("card", CARDS, ids=lambda card: card.id)
def test_sources_are_cited_in_full(card):
    assert card.sources
    for source in card.sources:
        assert source.url, source.title
        if "arxiv.org" in source.url or "doi.org" in source.url:
            # a paper: who wrote it and when, kept out of the title
            assert source.authors and source.year, source.title
            assert "et al." not in source.title and not re.search(r"\((19|20)\d\d\)", source.title)
        if "arxiv.org" in source.url:
            assert ARXIV.match(source.url), source.url
    assert set(card.related) <= ALL_IDS


def test_attention_lists_the_cards_that_point_to_it():
    pointing = {
        loaded.card.id for loaded in bundled_deck().cards if "attention" in loaded.card.related
    }
    attention = next(card for card in CARDS if card.id == "attention")
    assert pointing <= set(attention.related)


# -- transformers ---------------------------------------------------------------------


def test_attention_crossover_is_six_model_widths_not_six_head_widths():
    d_model, h = 4096, 32
    d_head = d_model // h

    def ratio(n):  # n² work of all heads over projections and MLP, per layer
        return (4 * n * n * d_head * h) / (24 * n * d_model**2)

    assert ratio(6 * d_model) == pytest.approx(1)
    assert ratio(6 * d_head) == pytest.approx(1 / h)  # the head-width reading is h times off
    # GPT-3 at 2048 tokens: the worked example's figures
    n, d_model, d_head = 2048, 12288, 128
    assert 2 * n * n * d_head == 1_073_741_824
    assert 4 * n * n * d_model == pytest.approx(2.06e11, rel=1e-3)
    assert 24 * n * d_model**2 == pytest.approx(7.42e12, rel=1e-3)
    assert n * n * 2 / 2**20 == 8 and 96 * 8 == 768
    q, k = RNG.standard_normal((n // 16, d_head)), RNG.standard_normal((n // 16, d_head))
    assert (q @ k.T).shape == (n // 16, n // 16)


def test_attention_worked_example_numbers():
    assert softmax(np.array([8.0, 0.0, -8.0]))[0] == pytest.approx(0.99966, abs=1e-5)
    p = softmax(np.array([1.0, 0.0, -1.0]))
    assert np.allclose(p, [0.665, 0.245, 0.090], atol=5e-4)
    big, small = softmax(np.array([8.0, 0.0, -8.0]))[0], p[0]
    assert small * (1 - small) / (big * (1 - big)) == pytest.approx(664, rel=0.01)


def test_causal_mask_example_and_the_nan_traps():
    scores = np.array([1.0, 2.0, 0.5, 3.0])
    masked = softmax(scores + np.array([0, 0, 0, -np.inf]))
    assert np.allclose(masked, [0.231, 0.629, 0.140, 0], atol=5e-4)
    assert np.allclose(softmax(scores), [0.085, 0.232, 0.052, 0.631], atol=5e-4)
    assert sum(1 for i in range(4) for j in range(4) if j <= i) == 10
    with np.errstate(invalid="ignore"):
        for dtype in (np.float16, np.float32, np.float64):  # NaN in any precision
            assert np.all(np.isnan(softmax(np.full(3, -np.inf, dtype=dtype))))
    with np.errstate(over="ignore"):
        assert np.isneginf(np.float16(-1e9))
        assert np.isneginf(np.float16(-65504) + np.float16(-100))
    finite = softmax(np.full(3, np.finfo(np.float32).min, dtype=np.float32))
    assert np.allclose(finite, 1 / 3)  # a finite fill gives uniform weights, not NaN


def test_gqa_cache_for_llama2_70b():
    layers, h, g, d_head, fp16 = 80, 64, 8, 128, 2
    per_token = 2 * layers * g * d_head * fp16
    assert per_token == 320 * 1024
    assert 2 * layers * h * d_head * fp16 == 2.5 * 2**20
    assert per_token * 4096 == 1.25 * 2**30
    # sharing: every query head in a group sees the same keys, so repeating them is exact
    k = RNG.standard_normal((g, 5, d_head))
    shared = np.repeat(k, h // g, axis=0)
    assert all(np.array_equal(shared[j], k[j // (h // g)]) for j in range(h))


def test_llama2_7b_cache_is_about_a_sixth_of_its_weights():
    per_token = 2 * 32 * 32 * 128 * 2
    assert per_token == 512 * 1024
    cache = per_token * 4096
    assert cache == 2 * 2**30
    weights = 6.74e9 * 2  # bytes of fp16 weights, about 13.5 GB
    assert round(weights / cache) == 6  # a sixth, not a seventh
    assert 2 * 32 * 8 * 128 * 2 * 4096 == 512 * 2**20  # with 8 KV heads


def test_layer_norm_worked_example():
    x = np.array([1.0, 2.0, 3.0, 6.0])
    assert (x.mean(), x.var()) == (3.0, 3.5)
    y = (x - 3) / math.sqrt(3.5 + 1e-5)
    assert np.allclose(y, [-1.069, -0.535, 0, 1.604], atol=5e-4)
    assert np.allclose(2 * y + 0.5, [-1.638, -0.569, 0.5, 3.707], atol=5e-4)
    assert np.allclose(x / math.sqrt(12.5 + 1e-5), [0.283, 0.566, 0.849, 1.697], atol=5e-4)


def test_multi_head_counts():
    assert 512 // 8 == 64 and 512 * 64 == 32_768 and 4 * 512**2 == 1_048_576
    assert pytest.approx(604e6, rel=1e-3) == 4 * 12288**2
    for h in (1, 8, 16):  # h slices of d_model × d_model/h are one d_model² matrix
        assert h * 512 * (512 // h) == 512**2


def test_residual_path_keeps_the_gradient():
    plain = math.prod(0.1 if layer % 2 == 0 else -0.1 for layer in range(50))
    residual = math.prod(1.1 if layer % 2 == 0 else 0.9 for layer in range(50))
    assert abs(plain) == pytest.approx(1e-50)
    assert residual == pytest.approx(0.778, abs=5e-4)


def rope_pair(vector, angle):
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s], [s, c]]) @ vector


def test_rope_conventions_and_worked_example():
    d = 8
    one_based = [10000 ** (-2 * (i - 1) / d) for i in range(1, d // 2 + 1)]
    zero_based = [10000 ** (-2 * j / d) for j in range(d // 2)]
    assert np.allclose(one_based, [1, 0.1, 0.01, 0.001]) and np.allclose(one_based, zero_based)
    assert 2 * math.pi / one_based[-1] == pytest.approx(6283, rel=1e-3)
    q, k = np.array([1.0, 0.0]), np.array([0.0, 1.0])
    for shift in (0, 100):
        score = rope_pair(q, 3 + shift) @ rope_pair(k, 5 + shift)
        assert score == pytest.approx(-0.909, abs=5e-4)
    assert q @ rope_pair(k, 2) == pytest.approx(-math.sin(2))


def test_sinusoid_worked_example_and_code_form():
    pe = [f(3 / 10000 ** (2 * i / 4)) for i in range(2) for f in (math.sin, math.cos)]
    assert np.allclose(pe, [0.1411, -0.9900, 0.0300, 0.9996], atol=5e-5)
    i = np.arange(256)
    assert np.allclose(10000 ** (2 * i / 512), np.exp(2 * i * math.log(10000) / 512))
    assert 2 * math.pi * 10000 ** (2 * 255 / 512) < 2 * math.pi * 10000


def test_gpt2_small_and_gqa_block_counts():
    d, layers = 768, 12
    assert 12 * d * d == 7_077_888 and 4 * d * d == 2_359_296 and 8 * d * d == 4_718_592
    blocks, tokens, positions = layers * 12 * d * d, 50257 * d, 1024 * d
    assert (blocks, tokens, positions) == (84_934_656, 38_597_376, 786_432)
    assert blocks + tokens + positions == pytest.approx(124.3e6, abs=0.05e6)
    assert 0.3 < tokens / (blocks + tokens + positions) < 1 / 3  # almost a third
    assert 12 * 96 * 12288**2 == 173_946_175_488
    d = 4096
    gqa_attention = 2 * d * d + 2 * d * (8 * 128)
    assert gqa_attention / d**2 == 2.5 and (gqa_attention + 8 * d * d) / d**2 == 10.5


def test_chinchilla_points_and_the_fitted_exponent():
    for compute, params, tokens in ((5.76e23, 6.93e10, 1.386e12), (1e24, 9.13e10, 1.826e12)):
        n = math.sqrt(compute / 120)
        assert n == pytest.approx(params, rel=1e-3) and 20 * n == pytest.approx(tokens, rel=1e-3)
    assert 15e12 / 8e9 == 1875
    # Hoffmann et al.'s parametric fit: the optimum N grows as C^(beta/(alpha+beta)) ≈ C^0.45
    alpha, beta = 0.34, 0.28
    assert beta / (alpha + beta) == pytest.approx(0.45, abs=0.01)


def test_lora_worked_example():
    d = k = 4096
    assert d * k == 16_777_216 and 8 * (d + k) == 65_536 and 16 * (d + k) == 131_072
    assert pytest.approx(0.0039, abs=1e-4) == 65_536 / 16_777_216
    assert 8 * 65_536 == 512 * 1024 and 8 * d * k == 128 * 2**20  # Adam moments, fp32
    b, a = RNG.standard_normal((d // 64, 8)), RNG.standard_normal((8, k // 64))
    assert np.linalg.matrix_rank(b @ a) <= 8


def test_training_flops_worked_example():
    compute = 6 * 7e9 * 2e12
    assert compute == pytest.approx(8.4e22)
    seconds = compute / (1000 * 1e15 * 0.4)
    assert seconds == pytest.approx(2.1e5) and seconds / 86400 == pytest.approx(2.43, abs=0.01)
    assert pytest.approx(5.9e23, rel=0.01) == 6 * 7e10 * 1.4e12


# -- alignment ----------------------------------------------------------------------------


def test_bradley_terry_probability_loss_and_gradient():
    r_w, r_l = 2.0, 0.5
    p = math.exp(r_w) / (math.exp(r_w) + math.exp(r_l))
    assert p == pytest.approx(sigmoid(r_w - r_l)) and p == pytest.approx(0.818, abs=5e-4)
    loss = lambda a, b: math.log1p(math.exp(b - a))  # noqa: E731
    assert loss(r_w, r_l) == pytest.approx(0.201, abs=5e-4)
    assert loss(r_w + 10, r_l + 10) == pytest.approx(loss(r_w, r_l))
    grad = (loss(r_w + 1e-6, r_l) - loss(r_w - 1e-6, r_l)) / 2e-6
    assert grad == pytest.approx(-0.182, abs=5e-4)
    assert loss(r_l, r_w) == pytest.approx(1.701, abs=5e-4)
    assert (1 - sigmoid(-1.5)) / (1 - sigmoid(1.5)) == pytest.approx(4.48, abs=0.01)


def test_kl_regularised_optimum_worked_example():
    pi_ref, r = np.array([0.5, 0.5]), np.array([1.0, 0.0])
    for beta, expected in ((0.5, [0.881, 0.119]), (2.0, [0.622, 0.378])):
        tilt = pi_ref * np.exp(r / beta)
        assert np.allclose(tilt / tilt.sum(), expected, atol=5e-4)
    tilt = pi_ref * np.exp(r / 0.5)
    pi_star = tilt / tilt.sum()
    penalised = r - 0.5 * np.log(pi_star / pi_ref)
    assert np.allclose(penalised, 0.717, atol=5e-4)
    assert np.allclose(penalised, 0.5 * math.log(tilt.sum()))

    def objective(pi):
        return pi @ r - 0.5 * np.sum(pi * np.log(pi / pi_ref))

    grid = [np.array([q, 1 - q]) for q in np.linspace(0.001, 0.999, 999)]
    assert max(objective(pi) for pi in grid) <= objective(pi_star) + 1e-12


def test_dpo_worked_example_and_equivalence_to_bradley_terry():
    beta, lp_w, lp_l, lr_w, lr_l = 0.1, -12, -15, -14, -13
    margin = (lp_w - lr_w) - (lp_l - lr_l)
    assert margin == 4
    loss = -math.log(sigmoid(beta * margin))
    assert sigmoid(0.4) == pytest.approx(0.599, abs=5e-4) and loss == pytest.approx(0.513, abs=5e-4)
    assert beta * sigmoid(-0.4) == pytest.approx(0.040, abs=5e-4)
    # adding beta*log Z(x) to both implicit rewards changes nothing
    for log_z in (-3.0, 0.0, 7.5):
        r_w, r_l = beta * (lp_w - lr_w) + beta * log_z, beta * (lp_l - lr_l) + beta * log_z
        assert -math.log(sigmoid(r_w - r_l)) == pytest.approx(loss)
    # gradient wrt lp_w by finite differences: -beta * sigmoid(-beta * margin)
    f = lambda x: -math.log(sigmoid(beta * ((x - lr_w) - (lp_l - lr_l))))  # noqa: E731
    assert (f(lp_w + 1e-6) - f(lp_w - 1e-6)) / 2e-6 == pytest.approx(-0.0401, abs=1e-4)


def test_ppo_clip_cases():
    def objective(rho, adv, eps=0.2):
        return min(rho * adv, min(max(rho, 1 - eps), 1 + eps) * adv)

    assert objective(1.5, 2) == pytest.approx(2.4)
    assert objective(0.7, 2) == pytest.approx(1.4)
    assert objective(0.5, -1) == pytest.approx(-0.8)
    assert objective(1.5, -1) == pytest.approx(-1.5)
    for rho in np.linspace(1.21, 3, 20):  # capped at (1 + eps) A for A > 0
        assert objective(rho, 2.0) == pytest.approx(1.2 * 2.0)


def test_gae_worked_example_and_limits():
    rewards, values, gamma, lam = [1.0, 0.0, 2.0], [0.5, 1.0, 1.5, 0.0], 0.9, 0.95
    deltas = [rewards[t] + gamma * values[t + 1] - values[t] for t in range(3)]
    assert np.allclose(deltas, [1.40, 0.35, 0.50])

    def advantages(lam):
        out = [sum((gamma * lam) ** k * deltas[t + k] for k in range(3 - t)) for t in range(3)]
        return np.array(out)

    assert np.allclose(advantages(lam), [2.065, 0.7775, 0.50], atol=5e-4)
    assert advantages(1.0)[0] == pytest.approx(1 + 0.81 * 2 - 0.5)
    assert np.allclose(advantages(0.0), deltas)
    adv = advantages(lam)
    assert adv[1] == pytest.approx(deltas[1] + gamma * lam * adv[2])  # the recursion


# -- decoding -----------------------------------------------------------------------------


def test_beam_search_example_and_length_penalty():
    greedy = 0.5 * 0.4
    beam = max(0.5 * 0.4, 0.4 * 0.9)
    assert (greedy, beam) == (pytest.approx(0.20), pytest.approx(0.36))

    def lp(length, alpha):
        return ((5 + length) / 6) ** alpha

    assert lp(1, 0.6) == 1
    assert (lp(3, 0.6), lp(8, 0.6)) == (
        pytest.approx(1.188, abs=5e-4),
        pytest.approx(1.590, abs=5e-4),
    )
    assert (-2 / lp(3, 0.6), -3 / lp(8, 0.6)) == (
        pytest.approx(-1.683, abs=5e-4),
        pytest.approx(-1.886, abs=5e-4),
    )
    assert -3 / lp(8, 1.0) == pytest.approx(-1.385, abs=5e-4) and -2 / lp(3, 1.0) == -1.5


P_EXAMPLE = np.array([0.5, 0.2, 0.15, 0.1, 0.05])


def test_top_k_worked_example():
    kept = P_EXAMPLE[:2] / P_EXAMPLE[:2].sum()
    assert np.allclose(kept, [5 / 7, 2 / 7]) and np.allclose(kept, [0.714, 0.286], atol=5e-4)
    assert np.allclose(P_EXAMPLE[:3] / 0.85, [0.588, 0.235, 0.176], atol=5e-4)
    logits = np.log(P_EXAMPLE)
    masked = np.where(logits >= np.sort(logits)[-2], logits, -np.inf)
    assert np.allclose(softmax(masked), [5 / 7, 2 / 7, 0, 0, 0])


def test_top_p_worked_example():
    cumulative = np.cumsum(P_EXAMPLE)
    assert np.allclose(cumulative, [0.5, 0.7, 0.85, 0.95, 1.0])
    size = int(np.argmax(cumulative >= 0.8 - 1e-12)) + 1
    assert size == 3 and P_EXAMPLE[1] / cumulative[2] == pytest.approx(4 / 17)
    assert np.allclose(P_EXAMPLE[:3] / 0.85, [0.588, 0.235, 0.176], atol=5e-4)
    flat = np.cumsum(np.full(100, 0.01))
    assert int(np.argmax(flat >= 0.8 - 1e-9)) + 1 == 80


def test_speculative_sampling_is_exact_and_its_yield():
    p, q = np.array([0.6, 0.3, 0.1]), np.array([0.3, 0.5, 0.2])
    accept = np.minimum(1, p / q)
    assert np.allclose(accept, [1, 0.6, 0.5])
    beta = np.minimum(p, q).sum()
    residual = np.maximum(0, p - q)
    assert beta == pytest.approx(0.7) and np.allclose(residual / residual.sum(), [1, 0, 0])
    for _ in range(50):  # exact for any pair of distributions
        p, q = RNG.dirichlet(np.ones(7)), RNG.dirichlet(np.ones(7))
        residual = np.maximum(0, p - q)
        out = q * np.minimum(1, p / q) + residual  # (1 - beta) * residual / (1 - beta)
        assert np.allclose(out, p)

    def tokens(alpha, gamma):
        return (1 - alpha ** (gamma + 1)) / (1 - alpha)

    assert tokens(0.8, 4) == pytest.approx(3.3616) and tokens(0.5, 4) == pytest.approx(1.9375)
    assert tokens(0.8, 4) / 1.2 == pytest.approx(2.80, abs=5e-3)
    speedups = {g: tokens(0.8, g) / (1 + 0.05 * g) for g in range(1, 30)}
    assert max(speedups, key=speedups.get) == 8
    assert speedups[8] == pytest.approx(3.09, abs=5e-3)


# -- systems ------------------------------------------------------------------------------


def test_float_formats_and_loss_scaling():
    def max_finite(e, m):
        return (2 - 2.0**-m) * 2.0 ** (2 ** (e - 1) - 1)

    assert max_finite(5, 10) == 65504 == np.finfo(np.float16).max
    assert max_finite(8, 7) == pytest.approx(3.39e38, rel=1e-3)
    assert max_finite(8, 23) == pytest.approx(float(np.finfo(np.float32).max))
    assert (
        np.finfo(np.float16).tiny == 2.0**-14
        and np.finfo(np.float16).smallest_subnormal == 2.0**-24
    )
    assert pytest.approx(9.8e-4, rel=0.01) == 2.0**-10 and 2.0**-7 == 0.0078125
    with np.errstate(over="ignore"):
        assert np.isinf(np.float16(70000)) and np.isinf(np.float16(2.0 * 65536))
    assert np.float16(1e-8) == 0
    assert float(np.float16(1e-8 * 1024)) / 1024 == pytest.approx(1.0012e-8, rel=1e-4)
    assert float(np.float16(1e-8 * 65536)) / 65536 == pytest.approx(9.997e-9, rel=1e-4)


def test_adam_state_is_sixteen_bytes_per_parameter():
    per_param = 2 + 2 + 4 + 4 + 4
    assert per_param == 16
    assert 16 * 7e9 == 112e9 and 16 * 7.5e9 == 120e9 and 16 * 1.75e11 == 2.8e12
    assert 16 * 1.75e11 / 80e9 == 35 and 112 / 64 == 1.75
    assert np.float16(np.float16(1.0) + np.float16(1e-4)) == 1.0  # why fp32 master weights


def test_absmax_and_zero_point_worked_examples():
    x = np.array([0.5, -1.2, 0.03, 2.54])
    s = 127 / np.abs(x).max()
    q = np.round(x * s)
    assert s == pytest.approx(50) and list(q) == [25, -60, 2, 127]
    assert np.allclose(q / s, [0.5, -1.2, 0.04, 2.54])
    outlier = np.array([0.5, -1.2, 0.03, 100.0])
    q = np.round(outlier * 1.27)
    assert list(q) == [1, -2, 0, 127]
    assert np.allclose(q / 1.27, [0.787, -1.575, 0, 100], atol=5e-4)
    assert [70e9 * bits / 8 / 1e9 for bits in (16, 8, 4)] == [140, 70, 35]
    assert pytest.approx(37.2, abs=0.05) == 70e9 * (4 + 16 / 64) / 8 / 1e9  # fp16 scale per 64

    delta = 4 / 255
    z = round(1 / delta)
    assert delta == pytest.approx(0.01569, abs=1e-5) and z == 64
    q = np.clip(np.round(np.array([-1.0, 0.0, 0.5, 3.0]) / delta) + z, 0, 255)
    assert list(q) == [0, 64, 96, 255]
    assert np.allclose(delta * (q - z), [-1.004, 0, 0.502, 2.996], atol=5e-4)
    assert (3 / 127) / delta == pytest.approx(1.5, abs=0.01)  # absmax step 50% coarser


def test_ring_allreduce_zero_stages_and_bubble():
    n, psi_gb = 8, 14
    assert 2 * (n - 1) / n * psi_gb == 24.5 and (n - 1) * psi_gb == 98
    assert 7e9 / 8 == 875e6
    # ZeRO's 7.5B / 64-GPU example
    psi, n = 7.5e9, 64
    stages = [16 * psi, 4 * psi + 12 * psi / n, 2 * psi + 14 * psi / n, 16 * psi / n]
    assert np.allclose(np.array(stages) / 1e9, [120, 31.4, 16.6, 1.9], atol=0.1)
    # pipeline bubble, by counting slots of a simulated schedule
    for p, m in [(4, 16), (4, 4), (4, 1), (8, 133)]:
        busy = {(s, j + s) for s in range(p) for j in range(m)}
        slots = 1 + max(t for _, t in busy)
        assert slots == m + p - 1
        assert 1 - len(busy) / (p * slots) == pytest.approx((p - 1) / (m + p - 1))
    assert pytest.approx(0.158, abs=5e-4) == 3 / 19 and pytest.approx(0.43, abs=5e-3) == 3 / 7
    assert 7 / (133 + 7) <= 0.05 < 7 / (132 + 7)


# -- tokens, experts, contrastive and diffusion losses --------------------------------------


def test_bpe_merges_on_the_worked_example():
    from collections import Counter

    words = {tuple("low"): 5, tuple("lower"): 2, tuple("newest"): 6, tuple("widest"): 3}
    base = {ch for w in words for ch in w}
    merges = []
    for _ in range(4):
        pairs = Counter()
        for w, c in words.items():
            for pair in itertools.pairwise(w):
                pairs[pair] += c
        best = min(pairs, key=lambda p: (-pairs[p], p))
        merges.append((best, pairs[best]))
        merged = {}
        for w, c in words.items():
            out, i = [], 0
            while i < len(w):
                if w[i : i + 2] == best:
                    out.append(best[0] + best[1])
                    i += 2
                else:
                    out.append(w[i])
                    i += 1
            merged[tuple(out)] = c
        words = merged
    assert merges == [(("e", "s"), 9), (("es", "t"), 9), (("l", "o"), 7), (("lo", "w"), 7)]
    assert len(base) + len(merges) == 14
    assert 256 + 50_000 + 1 == 50_257


def test_embedding_counts():
    assert 50257 * 768 == 38_597_376 and 32000 * 4096 == 131_072_000
    assert pytest.approx(163e6, rel=0.01) == 124.4e6 + 38.6e6
    assert 2 * 131_072_000 / 6.74e9 < 0.04 and 131_072_000 / 6.74e9 < 0.02
    assert np.array([1, 0, 2]) @ np.array([0.5, 3, -1]) == -1.5


def test_moe_gates_parameter_counts_and_balancing_loss():
    z = np.array([2.0, 1.0, 0.5, -1.0])
    assert np.allclose(softmax(z[:2]), [0.731, 0.269], atol=5e-4)
    assert np.allclose(softmax(z)[:2], [0.609, 0.224], atol=5e-4)
    expert = 3 * 4096 * 14336
    shared = 32 * (2 * 4096**2 + 2 * 4096 * 1024) + 2 * 32000 * 4096
    assert expert == 176_160_768
    assert (8 * 32 * expert + shared) / 1e9 == pytest.approx(46.7, abs=0.05)
    assert (2 * 32 * expert + shared) / 1e9 == pytest.approx(12.9, abs=0.05)

    def aux(f, p, n=4, alpha=0.01):
        return alpha * n * np.sum(np.asarray(f) * np.asarray(p))

    assert aux([0.5, 0.25, 0.125, 0.125], [0.4, 0.3, 0.2, 0.1]) == pytest.approx(0.0125)
    assert aux([0.25] * 4, [0.25] * 4) == pytest.approx(0.01)
    assert aux([1, 0, 0, 0], [1, 0, 0, 0]) == pytest.approx(0.04)


def test_infonce_and_clip_worked_examples():
    s = np.array([0.8, 0.5, 0.1, -0.2])
    p01, p1 = softmax(s / 0.1)[0], softmax(s)[0]
    assert p01 == pytest.approx(0.952, abs=5e-4) and -math.log(p01) == pytest.approx(
        0.0495, abs=5e-4
    )
    assert math.log(4) + math.log(p01) == pytest.approx(1.337, abs=5e-4)
    assert p1 == pytest.approx(0.384, abs=5e-4) and -math.log(p1) == pytest.approx(0.958, abs=5e-4)
    sims = np.array(
        [[0.9, 0.1, 0.0, 0.2], [0.2, 0.8, 0.1, 0.0], [0.0, 0.3, 0.7, 0.1], [0.1, 0.0, 0.2, 0.6]]
    )

    def directional(logits):
        return -np.log(np.diag(softmax(logits, axis=1)))

    rows, cols = directional(sims / 0.1), directional(sims.T / 0.1)
    assert np.allclose(rows, [0.0014, 0.0037, 0.0215, 0.0272], atol=5e-5)
    assert np.allclose(cols, [0.0014, 0.0080, 0.0101, 0.0272], atol=5e-5)
    assert (rows.mean(), cols.mean()) == (
        pytest.approx(0.0134, abs=5e-5),
        pytest.approx(0.0116, abs=5e-5),
    )
    assert (rows.mean() + cols.mean()) / 2 == pytest.approx(0.0125, abs=5e-5)
    assert (
        math.log(32768) == pytest.approx(10.4, abs=0.01)
        and pytest.approx(14.3, abs=0.05) == 1 / 0.07
    )


def test_diffusion_schedule_and_epsilon_inversion():
    betas = np.linspace(1e-4, 0.02, 1000)
    abar = np.cumprod(1 - betas)
    snr = abar / (1 - abar)
    assert abar[0] == pytest.approx(0.9999) and snr[0] == pytest.approx(9999, rel=1e-3)
    assert (abar[99], snr[99]) == (pytest.approx(0.897, abs=5e-4), pytest.approx(8.7, abs=0.05))
    assert (abar[249], snr[249]) == (pytest.approx(0.524, abs=5e-4), pytest.approx(1.10, abs=5e-3))
    assert abar[499] == pytest.approx(0.0786, abs=5e-5) and snr[499] == pytest.approx(
        0.085, abs=5e-4
    )
    assert math.sqrt(abar[499]) == pytest.approx(0.280, abs=5e-4)
    assert abar[-1] == pytest.approx(4.0e-5, abs=5e-7) and math.sqrt(abar[-1]) == pytest.approx(
        0.0064, abs=5e-5
    )
    a, x0, eps = 0.25, 2.0, -0.5
    xt = math.sqrt(a) * x0 + math.sqrt(1 - a) * eps
    assert xt == pytest.approx(0.567, abs=5e-4)
    assert (xt - math.sqrt(1 - a) * eps) / math.sqrt(a) == pytest.approx(2.0)
    assert (xt - math.sqrt(1 - a) * -0.4) / math.sqrt(a) == pytest.approx(1.827, abs=5e-4)
    assert 0.1 * math.sqrt(0.1) / math.sqrt(0.9) == pytest.approx(0.033, abs=5e-4)


def test_decoding_roofline_numbers():
    assert pytest.approx(248, abs=0.5) == 3.35e12 / 13.5e9
    assert pytest.approx(151, abs=0.5) == 2.039e12 / 13.5e9
    assert pytest.approx(993, abs=0.5) == 3.35e12 / (13.5e9 / 4)
    assert pytest.approx(214, abs=0.5) == 3.35e12 / (13.5e9 + 2 * 2**30)
    assert pytest.approx(295, abs=0.5) == 989e12 / 3.35e12
    assert pytest.approx(153, abs=0.5) == 312e12 / 2.039e12
    for batch in (1, 8, 64):  # fp16 weights: 2 FLOPs per weight per sequence, 2 bytes per weight
        assert (2 * 4096 * 4096 * batch) / (4096 * 4096 * 2) == batch


def test_online_softmax_merge_is_exact():
    l1, l2 = math.exp(1 - 3) + 1, math.exp(2 - 5) + 1
    assert (l1, l2) == (pytest.approx(1.1353, abs=5e-5), pytest.approx(1.0498, abs=5e-5))
    merged = math.exp(3 - 5) * l1 + l2
    row = np.array([1.0, 3.0, 2.0, 5.0])
    assert merged == pytest.approx(np.exp(row - 5).sum()) and merged == pytest.approx(
        1.2034, abs=5e-5
    )
    assert np.allclose(softmax(row), [0.0152, 0.1125, 0.0414, 0.8310], atol=5e-5)
    for _ in range(20):  # any split of any row
        x = RNG.standard_normal(30) * 10
        cut = int(RNG.integers(1, 29))
        a, b = x[:cut], x[cut:]
        m = max(a.max(), b.max())
        total = (
            np.exp(a.max() - m) * np.exp(a - a.max()).sum()
            + np.exp(b.max() - m) * np.exp(b - b.max()).sum()
        )
        assert total == pytest.approx(np.exp(x - x.max()).sum())
    assert math.log(np.finfo(np.float32).max) == pytest.approx(88.7, abs=0.05)
    assert math.log(65504) == pytest.approx(11.09, abs=0.005)


def test_grpo_group_advantages():
    def standardise(rewards):
        r = np.asarray(rewards, dtype=float)
        return (r - r.mean()) / r.std()

    assert np.allclose(standardise([1, 0, 0, 1]), [1, -1, -1, 1])
    assert np.allclose(standardise([1, 0, 0, 0]), [1.73, -0.58, -0.58, -0.58], atol=5e-3)
    r = np.array([1.0, 0, 0, 0])
    loo = [r[i] - np.delete(r, i).mean() for i in range(4)]
    assert np.allclose(loo, [1, -1 / 3, -1 / 3, -1 / 3])
    # centring with the group's own mean scales each advantage by (G - 1)/G of leave-one-out
    assert np.allclose(r - r.mean(), 3 / 4 * np.array(loo))


def test_best_of_n_kl_bound_and_win_rate():
    def kl_formula(n):
        return math.log(n) - (n - 1) / n

    assert kl_formula(4) == pytest.approx(0.636, abs=5e-4)
    assert kl_formula(16) == pytest.approx(1.835, abs=5e-4)
    assert kl_formula(64) == pytest.approx(3.175, abs=5e-4)
    # numeric integral of E[log(n u^(n-1))] under the density n u^(n-1)
    u = np.linspace(1e-9, 1, 2_000_001)
    integrand = 4 * u**3 * (math.log(4) + 3 * np.log(u))
    assert np.trapezoid(integrand, u) == pytest.approx(kl_formula(4), abs=1e-5)
    for k, expected in ((10, 0.629), (3, 0.555)):
        p = np.full(k, 1 / k)
        f = np.cumsum(p)
        q = f**4 - np.concatenate([[0.0], f[:-1]]) ** 4
        assert np.sum(q * np.log(q / p)) == pytest.approx(expected, abs=5e-4)
    assert [n / (n + 1) for n in (4, 16, 64)] == pytest.approx([0.8, 0.941, 0.985], abs=5e-4)


def test_kl_estimators_k1_k2_k3():
    for r, (k1, k2, k3) in ((0.8, (0.223, 0.025, 0.023)), (1.5, (-0.405, 0.082, 0.095))):
        assert -math.log(r) == pytest.approx(k1, abs=5e-4)
        assert math.log(r) ** 2 / 2 == pytest.approx(k2, abs=5e-4)
        assert (r - 1) - math.log(r) == pytest.approx(k3, abs=5e-4)
    r = np.linspace(0.01, 10, 10_000)
    assert np.all((r - 1) - np.log(r) >= 0)  # log r <= r - 1
    # exact expectations for a discrete pair of distributions
    pi, ref = np.array([0.5, 0.3, 0.2]), np.array([0.4, 0.4, 0.2])
    ratio = ref / pi
    kl = np.sum(pi * np.log(pi / ref))
    assert np.sum(pi * -np.log(ratio)) == pytest.approx(kl)
    assert np.sum(pi * ((ratio - 1) - np.log(ratio))) == pytest.approx(kl)
    assert np.sum(pi * np.log(ratio) ** 2 / 2) != pytest.approx(kl)


def test_swiglu_widths_and_swish():
    d = 4096
    assert 8 * d / 3 == pytest.approx(10922.7, abs=0.05)
    assert math.ceil(8 * d / 3 / 256) * 256 == 11008
    assert 3 * d * 11008 / (8 * d * d) == pytest.approx(1.008, abs=5e-4)
    assert 3 * d * 14336 / (8 * d * d) == pytest.approx(1.3125)

    def swish(z):
        return z * sigmoid(z)

    assert [round(float(swish(z)), 3) for z in (1.0, -1.0, -5.0)] == [0.731, -0.269, -0.033]
    z = np.linspace(-4, 0, 400_001)
    assert swish(z).min() == pytest.approx(-0.2785, abs=1e-4)


def test_alibi_slopes_and_biases():
    assert [2 ** (-8 * k / 8) for k in range(1, 9)] == [1 / 2**k for k in range(1, 9)]
    assert pytest.approx(0.7071, abs=5e-5) == 2 ** (-8 / 16)
    assert [-0.5 * (10 - j) for j in (10, 9, 5, 0)] == [0, -0.5, -2.5, -5]
    assert [round(-(10 - j) / 256, 3) for j in (10, 9, 5, 0)] == [0, -0.004, -0.02, -0.039]
    assert math.exp(-5) == pytest.approx(0.0067, abs=5e-5)
    assert 5 / (1 / 256) == 1280


def test_vit_patch_counts():
    assert (224 // 16) ** 2 == 196 and 16 * 16 * 3 == 768 and 768 * 768 == 589_824
    assert (384 // 16) ** 2 == 576 and pytest.approx(8.58, abs=5e-3) == 577**2 / 197**2
    assert (197**2, 577**2) == (38_809, 332_929)
    assert (224 // 32) ** 2 == 49 and 196**2 / 49**2 == 16 and 49**2 == 2_401
    img = RNG.standard_normal((32, 32, 3))
    grid = img.reshape(2, 16, 2, 16, 3).transpose(0, 2, 1, 3, 4).reshape(4, -1)
    assert np.allclose(grid[3], img[16:, 16:].reshape(-1))


def test_mfu_examples():
    assert pytest.approx(0.3) == 6 * 10e9 * 5000 / 1e15
    assert pytest.approx(0.4) == 8 * 10e9 * 5000 / 1e15
    assert pytest.approx(942, abs=0.5) == 0.4 * 989e12 / (6 * 70e9)
    days = 6 * 7e9 * 2e12 / (1000 * 1e15 * 0.4) / 86400
    assert days == pytest.approx(2.4, abs=0.05)


def test_classifier_free_guidance_conventions():
    ec, eu = np.array([0.2, -0.1]), np.array([0.5, 0.3])

    def guided(w):
        return (1 + w) * ec - w * eu

    assert np.allclose(guided(0), ec) and np.allclose(guided(3), [-0.7, -1.3])
    assert np.allclose(eu + 7.5 * (ec - eu), [-1.75, -2.7]) and np.allclose(
        guided(6.5), [-1.75, -2.7]
    )
    assert np.allclose(7.5 * ec - 6.5 * eu, [1.5 - 3.25, -0.75 - 1.95])


def test_rms_norm_worked_example():
    x = np.array([1.0, 2.0, 3.0, 6.0])
    rms = math.sqrt(np.mean(x**2))
    assert np.sum(x**2) == 50 and rms == pytest.approx(3.536, abs=5e-4)
    assert np.allclose(x / rms, [0.283, 0.566, 0.849, 1.697], atol=5e-4)
    assert np.allclose((10 * x) / math.sqrt(np.mean((10 * x) ** 2)), x / rms)
    assert math.sqrt(50) == pytest.approx(2 * rms)  # the L2 norm is sqrt(d) times the RMS


def test_rope_context_extension_numbers():
    d, b, s = 128, 10000.0, 4.0
    new_base = b * s ** (d / (d - 2))
    assert new_base == pytest.approx(40_890, abs=1)
    slowest = b ** (-(d - 2) / d)
    assert slowest == pytest.approx(1.155e-4, abs=5e-8)
    assert new_base ** (-(d - 2) / d) == pytest.approx(slowest / s)
    assert 2 * math.pi / slowest == pytest.approx(54_410, abs=1)
    assert 10_000 / s == 2_500 and 16_383 / s == 4095.75


def test_sliding_window_counts():
    n, w, layers = 32_768, 4_096, 32
    assert n * w == pytest.approx(1.34e8, rel=5e-3)
    assert (n * n / 2) / (n * w) == 4 and (n * n) / (n * w) == 8
    assert layers * w == 131_072 and w / n == 1 / 8 and math.ceil(20_000 / w) == 5
    # receptive field through stacked banded masks, small case
    i, j = np.arange(40)[:, None], np.arange(40)[None, :]
    band = ((j <= i) & (j > i - 5)).astype(int)
    reach = np.eye(40, dtype=int)
    for _ in range(3):
        reach = (band @ reach > 0).astype(int)
    assert 39 - int(np.argmax(reach[39])) == 3 * (5 - 1)


def test_serving_latency_example():
    latency = 0.2 + (500 - 1) * 0.02
    assert latency == pytest.approx(10.18)
    assert pytest.approx(50) == 1 / 0.02 and 500 / latency == pytest.approx(49.1, abs=0.05)
    assert pytest.approx(1280) == 32 / 0.025


def test_loss_power_law_examples():
    alpha, nc = 0.076, 8.8e13
    assert (nc / 1e9) ** alpha == pytest.approx(2.376, abs=5e-4)
    assert (nc / 1e10) ** alpha == pytest.approx(1.994, abs=5e-4)
    assert 2**-alpha == pytest.approx(0.949, abs=5e-4) and 10**-alpha == pytest.approx(
        0.839, abs=5e-4
    )
    assert 2 ** (1 / alpha) == pytest.approx(9_000, rel=0.02)


def test_distillation_gradients_and_t_squared():
    zt, zs = np.array([5.0, 3.0, 1.0]), np.array([4.0, 3.5, 0.5])
    assert np.allclose(softmax(zt), [0.867, 0.117, 0.016], atol=5e-4)
    assert np.allclose(softmax(zt / 4), [0.506, 0.307, 0.186], atol=5e-4)

    def grad(t):
        return (softmax(zs / t) - softmax(zt / t)) / t

    assert np.allclose(grad(1), [-0.256, 0.253, 0.003], atol=5e-4)
    assert np.allclose(grad(4), [-0.018, 0.019, -0.001], atol=5e-4)
    assert np.allclose(16 * grad(4), [-0.286, 0.306, -0.020], atol=5e-4)
    assert np.allclose(64 * grad(8), [-0.259, 0.295, -0.036], atol=5e-4)
    centred = (zs - zt) - (zs - zt).mean()
    assert np.allclose(centred / 3, [-0.222, 0.278, -0.056], atol=5e-4)
    assert np.allclose(4096**2 * grad(4096), centred / 3, atol=1e-3)


def test_quantisation_noise_numbers():
    delta = 2.54 / 127
    assert delta == pytest.approx(0.02) and delta**2 / 12 == pytest.approx(3.33e-5, abs=5e-8)
    assert delta / math.sqrt(12) == pytest.approx(0.0058, abs=5e-5)
    d4 = 2.54 / 7
    assert (d4 / delta) ** 2 == pytest.approx(329, abs=0.5)
    assert 10 * math.log10((d4 / delta) ** 2) == pytest.approx(25.2, abs=0.05)
    assert (
        20 * math.log10(2) == pytest.approx(6.02, abs=5e-3)
        and pytest.approx(49.9, abs=0.05) == 6.02 * 8 + 1.76
    )
    assert 4096 * delta**2 / 12 == pytest.approx(0.137, abs=5e-4)
    e = np.linspace(-0.5, 0.5, 1_000_001)
    assert np.trapezoid(e**2, e) == pytest.approx(1 / 12, rel=1e-6)


def test_tensor_parallel_volumes():
    elements = 4 * 2048 * 8192
    assert elements == 67_108_864 and elements * 2 / 2**20 == 128
    per_gpu = 2 * 7 / 8 * elements * 2
    assert per_gpu / 2**20 == 224 and per_gpu / 300e9 == pytest.approx(0.78e-3, abs=5e-6)
    assert 4 * 80 * per_gpu / 2**30 == 70 and 4 * 80 * per_gpu / 300e9 == pytest.approx(
        0.25, abs=5e-3
    )


def test_temperature_in_probability_form():
    p = np.array([0.6, 0.3, 0.1])

    def temper(t):
        q = p ** (1 / t)
        return q / q.sum()

    def entropy(q):
        return float(-np.sum(q * np.log(q)))

    assert np.allclose(temper(0.5), [0.783, 0.196, 0.022], atol=5e-4)
    assert np.allclose(temper(2.0), [0.473, 0.334, 0.193], atol=5e-4)
    assert [round(entropy(temper(t)), 3) for t in (0.5, 1.0, 2.0)] == [0.594, 0.898, 1.038]
    assert np.allclose(temper(2.0), softmax(np.log(p) / 2))
    assert np.sqrt(p).sum() == pytest.approx(1.639, abs=5e-4)
    assert temper(0.5)[0] / temper(0.5)[1] == pytest.approx(4)


def test_ddim_step_and_convergence():
    def step(x, eps, a_t, a_s):
        x0 = (x - math.sqrt(1 - a_t) * eps) / math.sqrt(a_t)
        return math.sqrt(a_s) * x0 + math.sqrt(1 - a_s) * eps

    x_t = 0.5 * 2.0 + math.sqrt(0.75) * -0.5
    assert step(x_t, -0.5, 0.25, 0.5) == pytest.approx(1.061, abs=5e-4)
    assert step(x_t, -0.5, 0.25, 0.5) == pytest.approx(math.sqrt(0.5) * 2 - math.sqrt(0.5) * 0.5)
    s2 = 0.09

    def final_std(n):
        abars = np.linspace(1e-4, 0.9999, n)
        x = math.sqrt(abars[0] * s2 + 1 - abars[0])
        for a_t, a_s in itertools.pairwise(abars):
            x = step(x, math.sqrt(1 - a_t) * x / (a_t * s2 + 1 - a_t), a_t, a_s)
        return x

    assert [round(final_std(n), 3) for n in (10, 100, 1000)] == [0.194, 0.281, 0.298]


def test_z_loss_example():
    z = np.array([30.0, 28.0, 25.0])
    log_z = float(np.logaddexp.reduce(z))
    assert log_z == pytest.approx(30.133, abs=5e-4) and 1e-4 * log_z**2 == pytest.approx(
        0.0908, abs=5e-5
    )
    p = np.exp(z - log_z)
    assert np.allclose(p, [0.876, 0.118, 0.006], atol=5e-4) and -math.log(p[0]) == pytest.approx(
        0.133, abs=5e-4
    )
    assert 1e-4 * (log_z - 30) ** 2 == pytest.approx(1.8e-6, abs=5e-8)
    assert np.allclose(2e-4 * log_z * p, [0.0053, 0.0007, 0.00004], atol=5e-5)


def test_min_p_example():
    p = np.array([0.5, 0.2, 0.15, 0.1, 0.04, 0.01])
    kept = p[p >= 0.1 * p.max()]
    assert len(kept) == 4 and kept.sum() == pytest.approx(0.95)
    assert np.allclose(kept / kept.sum(), [0.526, 0.211, 0.158, 0.105], atol=5e-4)
    confident = np.array([0.9, 0.05, 0.03, 0.02])
    assert np.count_nonzero(confident >= 0.1 * confident.max()) == 1


def test_mla_cache_sizes():
    n_h, d_h, d_c, d_r, layers = 128, 128, 512, 64, 60
    mha, mla = 2 * n_h * d_h, d_c + d_r
    assert (mha, mla) == (32_768, 576) and mha / mla == pytest.approx(56.9, abs=0.05)
    assert mha * layers == 1_966_080 and mha * layers * 2 / 2**20 == 3.75
    assert mla * layers * 2 == 69_120 and mla * layers * 2 / 1024 == 67.5
    assert mla / (2 * d_h) == 2.25
