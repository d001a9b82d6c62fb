"""Figures added or corrected in the training, systems, scale, init, backprop
and rl decks (review part 2), recomputed independently of the cards' own
snippets.
"""

from __future__ import annotations

import numpy as np
import pytest

RNG = np.random.default_rng(2311)


def test_ema_matches_a_boxcar_in_lag_and_variance_at_two_over_n_plus_one():
    n = 10
    beta = 1 - 2 / (n + 1)
    assert beta / (1 - beta) == pytest.approx((n - 1) / 2)  # mean age
    assert (1 - beta) / (1 + beta) == pytest.approx(1 / n)  # noise-variance factor
    beta = 1 - 1 / n
    assert beta / (1 - beta) == pytest.approx(9.0)  # twice the boxcar's 4.5


def test_ema_noise_variance_factor_by_simulation():
    beta = 0.9
    noise = RNG.standard_normal(200_000)
    average = np.zeros_like(noise)
    for t in range(1, noise.size):
        average[t] = beta * average[t - 1] + (1 - beta) * noise[t]
    assert average[1000:].var() == pytest.approx((1 - beta) / (1 + beta), rel=0.03)


def test_float32_sigmoid_at_minus_100_naive_and_careful():
    z = np.float32(-100)
    with np.errstate(over="ignore"):
        naive = np.float32(1) / (np.float32(1) + np.exp(-z))
    assert naive == 0
    careful = np.exp(z) / (np.float32(1) + np.exp(z))
    assert careful == pytest.approx(3.8e-44, rel=0.02)
    assert float(np.log(careful)) == pytest.approx(-99.983, abs=1e-3)
    assert np.exp(np.float32(-104)) == 0
    with np.errstate(over="ignore"):
        assert np.isinf(np.exp(np.float32(88.8)))  # e^(-z) overflows for z below -88.7
    assert np.isfinite(np.exp(np.float32(88.7)))


def test_fp16_rounds_above_half_the_smallest_subnormal_up():
    smallest = 2.0**-24
    assert float(np.float16(0.51 * smallest)) == smallest
    assert float(np.float16(0.5 * smallest)) == 0.0  # the tie goes to even, i.e. zero


def test_bf16_spacing_near_one_and_its_rounding_threshold():
    def to_bf16(x):
        bits = np.array([x], dtype=np.float32).view(np.uint32)
        rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
        return float(rounded.view(np.float32)[0])

    assert to_bf16(1 + 2**-7) == 1 + 2**-7  # the spacing is 2^-7
    assert to_bf16(1 + 2**-8) == 1.0  # half the spacing rounds away (tie to even)
    assert to_bf16(1 + 1.1 * 2**-8) == 1 + 2**-7


def test_zero_stage_one_traffic_with_reduce_scatter_equals_plain_dp():
    psi = 1.0
    all_reduce, reduce_scatter, all_gather = 2 * psi, psi, psi
    assert reduce_scatter + all_gather == all_reduce
    assert (all_reduce + all_gather) / all_reduce == 1.5


def test_causal_attention_share_of_training_flops():
    n_layer, d_model, n_ctx = 32, 4096, 2048
    params = 12 * n_layer * d_model**2
    attention = 6 * n_layer * n_ctx * d_model
    assert attention / (6 * params) == pytest.approx(n_ctx / (12 * d_model))
    assert attention / (6 * params) == pytest.approx(0.0417, abs=1e-4)


def test_grpo_group_mean_is_a_rescaled_leave_one_out_baseline():
    group = 8
    rewards = RNG.normal(size=(5000, group))
    with_self = rewards - rewards.mean(axis=1, keepdims=True)
    others = (rewards.sum(axis=1, keepdims=True) - rewards) / (group - 1)
    assert np.allclose(with_self, (group - 1) / group * (rewards - others))
    assert (group - 1) / group == 0.875


def test_grpo_policy_gradient_with_group_mean_is_the_true_gradient_times_0_875():
    # one-parameter softmax over two actions with rewards 1 and 0
    theta, group, trials = 0.3, 8, 40_000
    p = 1 / (1 + np.exp(-theta))
    true_gradient = p * (1 - p)  # d/dtheta of E[r] = p
    actions = RNG.random((trials, group)) < p
    rewards = actions.astype(float)
    scores = np.where(actions, 1 - p, -p)  # d log pi / d theta
    advantage = rewards - rewards.mean(axis=1, keepdims=True)
    estimate = (scores * advantage).mean()
    assert estimate == pytest.approx(0.875 * true_gradient, rel=0.03)


def test_mfu_planning_example_days():
    def days(mfu):
        return 6 * 70e9 * 1.4e12 / (2048 * 989e12 * mfu) / 86_400

    assert days(0.40) == pytest.approx(8.4, abs=0.05)
    assert days(0.25) == pytest.approx(13.4, abs=0.05)
