"""The rl, losses, architecture, unsupervised and trees decks, checked by computation.

Each test recomputes, with numpy and independently of the judge and of the
card's own snippet, a number or identity that one of these cards states.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

RNG = np.random.default_rng(2026)


def softmax(z, axis=-1):
    shifted = z - z.max(axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / e.sum(axis=axis, keepdims=True)


# -- reinforcement learning ---------------------------------------------------------


def test_bellman_two_state_loop_values():
    gamma = 0.9
    transitions = np.array([[0.0, 1.0], [1.0, 0.0]])
    rewards = np.array([1.0, 0.0])
    values = np.linalg.solve(np.eye(2) - gamma * transitions, rewards)
    assert values == pytest.approx([5.263, 4.737], abs=5e-4)


@pytest.mark.parametrize(("gamma", "horizon"), [(0.9, 10), (0.99, 100)])
def test_constant_reward_is_worth_r_over_one_minus_gamma(gamma, horizon):
    assert sum(gamma**t for t in range(20_000)) == pytest.approx(horizon)


def test_bellman_holds_for_a_random_policy_evaluated_by_monte_carlo():
    rng = np.random.default_rng(7)
    gamma, n = 0.8, 4
    transitions = rng.dirichlet(np.ones(n), size=n)
    rewards = rng.standard_normal(n)
    values = np.linalg.solve(np.eye(n) - gamma * transitions, rewards)
    assert values == pytest.approx(rewards + gamma * transitions @ values)
    # Monte Carlo rollouts from state 0, truncated where gamma^t is negligible.
    episodes, steps = 4000, 60
    state = np.zeros(episodes, dtype=int)
    total = np.zeros(episodes)
    cumulative = transitions.cumsum(axis=1)
    for t in range(steps):
        total += gamma**t * rewards[state]
        draws = rng.random(episodes)[:, None]
        state = (draws > cumulative[state]).sum(axis=1)
    assert total.mean() == pytest.approx(values[0], abs=0.1)


def test_q_learning_worked_example_update():
    r, gamma, alpha, q_sa = 1.0, 0.9, 0.1, 3.0
    q_next = np.array([2.0, 5.0])
    target = r + gamma * q_next.max()
    assert target == pytest.approx(5.5)
    assert q_sa + alpha * (target - q_sa) == pytest.approx(3.25)
    sarsa = r + gamma * q_next[0]
    assert sarsa == pytest.approx(2.8)
    assert q_sa + alpha * (sarsa - q_sa) == pytest.approx(2.98)
    assert q_sa + alpha * (r - q_sa) == pytest.approx(2.8)


def test_max_of_noisy_estimates_is_biased_upward():
    # Ten actions all truly worth 0, estimated with unit noise: E[max] is about 1.54.
    estimates = RNG.standard_normal((100_000, 10))
    assert estimates.max(axis=1).mean() == pytest.approx(1.539, abs=0.02)


def test_reinforce_baseline_keeps_the_mean_and_cuts_the_variance():
    p = 0.25
    returns = np.array([2.0, 10.0])
    probs = np.array([1 - p, p])
    score = np.array([-p, 1 - p])
    true_gradient = p * (1 - p) * (returns[1] - returns[0])
    assert true_gradient == pytest.approx(1.5)
    optimal = probs @ (score**2 * returns) / (probs @ score**2)
    assert optimal == pytest.approx(8.0)
    for baseline, variance in [(0.0, 12.0), (probs @ returns, 3.0), (optimal, 0.0)]:
        samples = score * (returns - baseline)
        assert probs @ samples == pytest.approx(true_gradient)
        assert probs @ samples**2 - (probs @ samples) ** 2 == pytest.approx(variance, abs=1e-12)


def test_softmax_policy_score_has_zero_mean():
    logits = RNG.standard_normal(6)
    pi = softmax(logits)
    scores = np.eye(6) - pi  # row a: gradient of log pi(a) with respect to the logits
    assert pi @ scores == pytest.approx(np.zeros(6), abs=1e-12)


def test_td_errors_telescope_to_the_monte_carlo_error():
    gamma, v0, v1, r1, r2 = 0.9, 2.0, 3.0, 1.0, 4.0
    delta0, delta1 = r1 + gamma * v1 - v0, r2 - v1
    assert (delta0, delta1) == pytest.approx((1.7, 1.0))
    assert delta0 + gamma * delta1 == pytest.approx(2.6)
    assert r1 + gamma * r2 - v0 == pytest.approx(2.6)
    assert v0 + 0.1 * delta0 == pytest.approx(2.17)


def test_random_walk_values_solve_the_bellman_equation():
    # States 1..5 of the classic random walk, gamma = 1, reward 1 on the right exit.
    n = 5
    transitions = np.zeros((n, n))
    rewards = np.zeros(n)
    for s in range(n):
        if s > 0:
            transitions[s, s - 1] = 0.5
        if s < n - 1:
            transitions[s, s + 1] = 0.5
    rewards[-1] = 0.5
    values = np.linalg.solve(np.eye(n) - transitions, rewards)
    assert values == pytest.approx(np.arange(1, 6) / 6)


# -- losses ---------------------------------------------------------------------------


def focal(p_t, gamma):
    return -((1 - p_t) ** gamma) * np.log(p_t)


def test_focal_loss_table_and_totals():
    p = np.array([0.9, 0.5, 0.1])
    assert -np.log(p) == pytest.approx([0.105, 0.693, 2.303], abs=5e-4)
    assert focal(p, 2) == pytest.approx([0.00105, 0.173, 1.865], abs=5e-4)
    assert focal(0.1, 2) / focal(0.9, 2) == pytest.approx(1770, rel=1e-3)
    assert -100_000 * math.log(0.99) == pytest.approx(1005, abs=0.5)
    assert focal(0.99, 2) * 100_000 == pytest.approx(0.10, abs=0.005)
    assert focal(0.1, 2) * 100 == pytest.approx(187, abs=0.5)


def test_focal_logit_gradient_vanishes_like_one_minus_p_cubed():
    # d FL / d logit for a sigmoid output with p_t = sigmoid(z), gamma = 2.
    z = np.array([3.0, 5.0, 7.0])
    eps = 1e-6

    def loss(logit):
        return focal(1 / (1 + np.exp(-logit)), 2.0)

    grad = (loss(z + eps) - loss(z - eps)) / (2 * eps)
    one_minus_p = 1 - 1 / (1 + np.exp(-z))
    ratio = grad / one_minus_p**3
    assert np.all(ratio < 0)
    assert ratio[-1] == pytest.approx(-3, rel=0.01)  # leading term -(gamma + 1)(1 - p)^3


def test_triplet_and_contrastive_worked_numbers():
    margin, d_ap = 0.2, 0.5
    d_an = np.array([0.9, 0.6, 0.3])
    assert np.maximum(0, d_ap - d_an + margin) == pytest.approx([0, 0.1, 0.4])
    assert 0.5 * max(0.0, 1 - 0.4) ** 2 == pytest.approx(0.18)
    assert 0.5 * max(0.0, 1 - 1.3) ** 2 == 0


def test_collapsed_embedding_gives_triplet_loss_equal_to_the_margin():
    embeddings = np.ones((6, 4))
    distances = ((embeddings[:, None] - embeddings[None]) ** 2).sum(-1)
    assert np.all(np.maximum(0, distances[0, 1] - distances[0, 2:] + 0.2) == pytest.approx(0.2))


def test_distillation_gradient_times_t_squared_tends_to_logit_matching():
    teacher, student = np.array([4.0, 1.0, 0.0]), np.array([2.0, 1.0, 0.0])
    assert softmax(teacher) == pytest.approx([0.936, 0.047, 0.017], abs=5e-4)
    assert softmax(teacher / 4) == pytest.approx([0.543, 0.257, 0.200], abs=5e-4)

    def gradient(temperature):
        return (softmax(student / temperature) - softmax(teacher / temperature)) / temperature

    assert gradient(1) == pytest.approx([-0.271, 0.198, 0.073], abs=5e-4)
    assert gradient(4) == pytest.approx([-0.031, 0.017, 0.014], abs=5e-4)
    scaled = {t: np.linalg.norm(gradient(t)) * t**2 for t in (1, 4, 16, 64)}
    assert scaled == pytest.approx({1: 0.34, 4: 0.61, 16: 0.57, 64: 0.55}, abs=5e-3)
    centred = (student - student.mean()) - (teacher - teacher.mean())
    assert np.linalg.norm(centred / 3) == pytest.approx(0.544, abs=5e-4)
    assert np.linalg.norm(gradient(1024.0)) * 1024**2 == pytest.approx(0.544, abs=2e-3)


def huber(a, delta):
    return np.where(np.abs(a) <= delta, 0.5 * a**2, delta * (np.abs(a) - delta / 2))


def test_huber_table_and_joint():
    a = np.array([0.5, 2.0, 10.0])
    assert huber(a, 1.0) == pytest.approx([0.125, 1.5, 9.5])
    assert 0.5 * a**2 == pytest.approx([0.125, 2, 50])
    assert huber(np.array([1.0]), 1.0) == pytest.approx([0.5])


def test_huber_location_solves_the_clipped_residual_equation():
    # Five inliers and one outlier: sum(clip(y - c, -1, 1)) = 0 gives c = (5.2 + 1) / 5.
    y = np.array([1.0, 1.2, 0.9, 1.1, 1.0, 50.0])
    grid = np.linspace(0, 10, 100_001)
    best = grid[huber(y[None, :] - grid[:, None], 1.0).sum(axis=1).argmin()]
    assert best == pytest.approx(1.24, abs=1e-3)
    assert np.clip(y - 1.24, -1, 1).sum() == pytest.approx(0, abs=1e-12)
    assert np.median(y) < best < y.mean()


def test_huber_delta_1345_has_95_percent_gaussian_efficiency():
    # Asymptotic efficiency of the Huber M-estimator of location under N(0, 1):
    # (P(|Z| < c))^2 / E[clip(Z, -c, c)^2], integrated numerically.
    c = 1.345
    z = np.linspace(-12, 12, 2_400_001)
    density = np.exp(-(z**2) / 2) / math.sqrt(2 * math.pi)
    step = z[1] - z[0]
    inside = (density * (np.abs(z) < c)).sum() * step
    second_moment = (density * np.clip(z, -c, c) ** 2).sum() * step
    assert inside**2 / second_moment == pytest.approx(0.95, abs=0.001)


# -- architecture ---------------------------------------------------------------------


def test_rmsnorm_worked_example_and_mean_square_identity():
    x = np.array([1.0, 2.0, 3.0, 6.0])
    assert (x.mean(), x.var(), (x**2).mean()) == pytest.approx((3, 3.5, 12.5))
    assert (x - 3) / math.sqrt(3.5) == pytest.approx([-1.069, -0.535, 0, 1.604], abs=5e-4)
    assert x / math.sqrt(12.5) == pytest.approx([0.283, 0.566, 0.849, 1.697], abs=5e-4)
    assert (math.sqrt(12.5), math.sqrt(3.5)) == pytest.approx((3.54, 1.87), abs=5e-3)
    batch = RNG.standard_normal((100, 32)) + RNG.standard_normal((100, 1))
    assert (batch**2).mean(axis=1) == pytest.approx(batch.var(axis=1) + batch.mean(axis=1) ** 2)


@pytest.mark.parametrize(("d", "hidden"), [(4096, 11008), (5120, 13824)])
def test_swiglu_hidden_width_rounding_matches_llama(d, hidden):
    assert 256 * math.ceil(int(8 * d / 3) / 256) == hidden


def test_swiglu_parameter_budget():
    d = 4096
    assert 3 * d * 11008 == 135_266_304
    assert 2 * d * 4 * d == 8 * d * d == 134_217_728
    assert 3 * d * 11008 / (8 * d * d) == pytest.approx(1.0078, abs=1e-4)
    assert 32 * 3 * d * 11008 / 1e9 == pytest.approx(4.33, abs=0.005)
    assert 3 * d * 4 * d + 4 * d * d == 16 * d * d  # SwiGLU kept at 4d, plus attention


def normal_cdf(x):
    return 0.5 * (1 + np.vectorize(math.erf)(x / math.sqrt(2)))


def gelu(x):
    return x * normal_cdf(x)


def test_gelu_table_minimum_and_approximations():
    x = np.array([2.0, 1.0, 0.5, -1.0, -3.0])
    assert gelu(x) == pytest.approx([1.9545, 0.8413, 0.3457, -0.1587, -0.0040], abs=5e-5)
    xs = np.linspace(-6, 6, 24_001)
    values = gelu(xs)
    assert values.min() == pytest.approx(-0.1700, abs=5e-5)
    assert xs[values.argmin()] == pytest.approx(-0.752, abs=1e-3)
    tanh_form = 0.5 * xs * (1 + np.tanh(math.sqrt(2 / math.pi) * (xs + 0.044715 * xs**3)))
    sigmoid_form = xs / (1 + np.exp(-1.702 * xs))
    assert np.abs(values - tanh_form).max() == pytest.approx(4.7e-4, abs=5e-6)
    assert np.abs(values - sigmoid_form).max() == pytest.approx(0.0203, abs=5e-4)
    silu = xs / (1 + np.exp(-xs))
    assert silu.min() == pytest.approx(-0.278, abs=5e-4)
    assert np.allclose(values, np.maximum(xs, 0) - np.abs(xs) * normal_cdf(-np.abs(xs)))
    assert np.allclose(values - gelu(-xs), xs)


def test_alibi_slopes_and_decay_factors():
    slopes8 = 2.0 ** (-8 * np.arange(1, 9) / 8)
    assert slopes8 == pytest.approx([1 / 2**k for k in range(1, 9)])
    slopes16 = 2.0 ** (-8 * np.arange(1, 17) / 16)
    assert (slopes16[0], slopes16[-1]) == pytest.approx((0.707, 0.0039), abs=5e-4)
    assert math.exp(-0.5 * 7) == pytest.approx(0.030, abs=5e-4)
    assert math.exp(-7 / 256) == pytest.approx(0.973, abs=5e-4)
    assert math.exp(-5) == pytest.approx(0.007, abs=5e-4)
    assert math.exp(-100 / 256) == pytest.approx(0.68, abs=5e-3)
    assert math.exp(-50) == pytest.approx(2e-22, rel=0.05)
    penalty = 5000 * slopes8[-1]
    assert penalty == pytest.approx(19.5, abs=0.05)
    assert math.exp(-penalty) == pytest.approx(3e-9, rel=0.15)


@pytest.mark.parametrize(("n", "w"), [(1, 1), (5, 5), (9, 2), (100, 17)])
def test_sliding_window_pair_count(n, w):
    pairs = sum(min(i + 1, w) for i in range(n))
    assert pairs == n * w - w * (w - 1) // 2


@pytest.mark.parametrize(("w", "layers"), [(2, 3), (5, 4), (8, 2)])
def test_sliding_window_reach_grows_by_w_minus_one_per_layer(w, layers):
    n = 80
    reachable = {n - 1}
    for _ in range(layers):
        reachable = {j for i in reachable for j in range(max(0, i - w + 1), i + 1)}
    assert n - 1 - min(reachable) == layers * (w - 1)


def test_sliding_window_worked_numbers():
    n, w = 32_768, 4096
    assert n * (n + 1) // 2 == 536_887_296
    assert n * w - w * (w - 1) // 2 == 125_831_168
    assert (n * (n + 1) / 2) / (n * w - w * (w - 1) / 2) == pytest.approx(4.27, abs=0.005)
    assert 32 * (w - 1) == 131_040


@pytest.mark.parametrize("layers", [16, 64, 100, 400])
def test_checkpoint_segment_length_minimising_memory_is_sqrt_layers(layers):
    memory = {k: math.ceil(layers / k) + k for k in range(1, layers + 1)}
    best = min(memory, key=memory.get)
    assert best == math.isqrt(layers)
    assert memory[best] == 2 * math.isqrt(layers)


def test_checkpoint_worked_numbers():
    assert 100 / 10 + 10 == 20
    assert 100 / 50 + 50 == 100 / 2 + 2 == 52
    # Exact count when the checkpoint doubles as the segment's first input: L = 16.
    exact = {k: math.ceil(16 / k) + k - 1 for k in range(1, 17)}
    assert min(exact.values()) == exact[4] == 7


# -- unsupervised ---------------------------------------------------------------------


def normal_pdf(x, mean, std):
    return np.exp(-((x - mean) ** 2) / (2 * std**2)) / (std * math.sqrt(2 * math.pi))


def test_gmm_responsibility_worked_example():
    n1, n2 = normal_pdf(1.0, 0, 1), normal_pdf(1.0, 3, 1)
    assert (n1, n2) == pytest.approx((0.2420, 0.0540), abs=5e-5)
    assert 0.5 * n1 / (0.5 * n1 + 0.5 * n2) == pytest.approx(0.818, abs=5e-4)
    assert (0.2 * n1, 0.8 * n2) == pytest.approx((0.0484, 0.0432), abs=5e-5)
    assert 0.2 * n1 / (0.2 * n1 + 0.8 * n2) == pytest.approx(0.528, abs=5e-4)


def test_gmm_weight_update_maximises_the_expected_log_weight():
    # For fixed responsibilities, sum_i sum_k r_ik log pi_k over the simplex peaks at R_k / n.
    rng = np.random.default_rng(3)
    r = rng.dirichlet(np.ones(3), size=50)
    closed_form = r.sum(axis=0) / len(r)
    best = max((r * np.log(p)).sum() for p in rng.dirichlet(np.ones(3), size=20_000))
    assert (r * np.log(closed_form)).sum() >= best


def test_gmm_hard_limit_is_nearest_mean():
    means = np.array([-1.0, 0.5, 2.0])
    x = np.array([-0.3, 0.9, 1.6])
    joint = normal_pdf(x[:, None], means, 0.05)
    hard = joint / joint.sum(axis=1, keepdims=True)
    nearest = np.abs(x[:, None] - means).argmin(axis=1)
    assert hard == pytest.approx(np.eye(3)[nearest], abs=1e-9)


def test_cosine_worked_example_and_unit_distance_identity():
    u, v = np.array([3.0, 4.0]), np.array([4.0, 3.0])
    assert u @ v == 24
    cosine = u @ v / (np.linalg.norm(u) * np.linalg.norm(v))
    assert cosine == pytest.approx(0.96)
    assert ((u / 5 - v / 5) ** 2).sum() == pytest.approx(0.08)
    assert u @ (10 * v) == pytest.approx(240)
    w = np.array([1.0, 0.0])
    assert (u @ w, 10 * v @ w, v @ w / 5, u @ w / 5) == pytest.approx((3, 40, 0.8, 0.6))
    x = RNG.standard_normal((50, 16))
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    squared = ((x[:, None] - x[None]) ** 2).sum(-1)
    assert squared == pytest.approx(2 - 2 * x @ x.T)


def test_one_minus_cosine_breaks_the_triangle_inequality():
    a, b, c = (np.array([math.cos(t), math.sin(t)]) for t in (0.0, math.pi / 4, math.pi / 2))
    assert 1 - a @ c > (1 - a @ b) + (1 - b @ c)


def test_kmeans_plus_plus_worked_numbers():
    squared = (np.array([0.0, 1.0, 10.0, 11.0]) - 0.0) ** 2
    assert squared.sum() == 222
    assert squared / squared.sum() == pytest.approx([0, 0.0045, 0.450, 0.545], abs=5e-4)
    assert squared[2:].sum() / squared.sum() == pytest.approx(0.995, abs=5e-4)
    assert 8 * (math.log(10) + 2) == pytest.approx(34.4, abs=0.05)


def test_kmeans_plus_plus_second_centre_frequencies_follow_d_squared():
    rng = np.random.default_rng(11)
    points = rng.standard_normal((6, 2))
    squared = ((points - points[0]) ** 2).sum(axis=1)
    draws = rng.choice(6, size=200_000, p=squared / squared.sum())
    frequencies = np.bincount(draws, minlength=6) / draws.size
    assert frequencies[0] == 0
    assert frequencies == pytest.approx(squared / squared.sum(), abs=0.005)


# -- trees and ensembles --------------------------------------------------------------


def ensemble_variance(sigma2, rho, trees):
    weights = np.full(trees, 1 / trees)
    covariance = sigma2 * (rho * np.ones((trees, trees)) + (1 - rho) * np.eye(trees))
    return weights @ covariance @ weights


@pytest.mark.parametrize(
    ("rho", "expected"),
    [(0.0, (1, 0.100, 0.010)), (0.3, (1, 0.370, 0.307)), (0.7, (1, 0.730, 0.703))],
)
def test_random_forest_variance_table(rho, expected):
    got = tuple(ensemble_variance(1.0, rho, b) for b in (1, 10, 100))
    assert got == pytest.approx(expected, abs=5e-4)


def test_random_forest_variance_savings():
    at = {rho: ensemble_variance(1.0, rho, 100) for rho in (0.3, 0.7)}
    assert ensemble_variance(1.0, 0.3, 10) - at[0.3] == pytest.approx(0.063, abs=5e-4)
    assert at[0.7] - at[0.3] == pytest.approx(0.396, abs=5e-4)
    assert ensemble_variance(1.2, 0.3, 100) == pytest.approx(0.368, abs=5e-4)


@pytest.mark.parametrize(
    ("n", "left_out"), [(1, 0.0), (2, 0.25), (10, 0.349), (100, 0.366), (1000, 0.368)]
)
def test_bootstrap_left_out_fraction_table(n, left_out):
    assert (1 - 1 / n) ** n == pytest.approx(left_out, abs=5e-4)


def test_bootstrap_left_out_fraction_by_exact_counting():
    # Count the n^n equally likely samples for n = 5 that miss point 0.
    n = 5
    samples = np.array(np.meshgrid(*[range(n)] * n)).reshape(n, -1).T
    assert (samples != 0).all(axis=1).mean() == pytest.approx((1 - 1 / n) ** n)


def test_bootstrap_worked_numbers():
    assert 500 * math.exp(-1) == pytest.approx(184, abs=0.5)
    rows = 10_000
    assert rows * (1 - (1 - 1 / rows) ** rows) == pytest.approx(6321, abs=1)


def test_gradient_boosting_worked_numbers():
    y = np.array([3.0, 5.0, 10.0])
    start = np.full(3, y.mean())
    residuals = y - start
    assert residuals == pytest.approx([-3, -1, 4])
    after = start + 0.1 * residuals
    assert after == pytest.approx([5.7, 5.9, 6.4])
    assert ((y - start) ** 2).sum() == pytest.approx(26)
    assert ((y - after) ** 2).sum() == pytest.approx(21.06)
    p = 1 / (1 + math.exp(-2))
    assert (1 - 0.5, 1 - p, 0 - p) == pytest.approx((0.5, 0.119, -0.881), abs=5e-4)


def test_log_loss_hessian_in_log_odds_is_p_times_one_minus_p():
    logits, eps = np.linspace(-4, 4, 9), 1e-4

    def loss(f):
        return np.log1p(np.exp(-f))  # log-loss of a positive label at log-odds f

    second = (loss(logits + eps) - 2 * loss(logits) + loss(logits - eps)) / eps**2
    p = 1 / (1 + np.exp(-logits))
    assert second == pytest.approx(p * (1 - p), abs=1e-6)


def test_ucb1_worked_example():
    def bonus(t, pulls):
        return math.sqrt(2 * math.log(t) / pulls)

    assert 2 * math.log(100) == pytest.approx(9.21, abs=5e-3)
    assert (bonus(100, 80), bonus(100, 20)) == pytest.approx((0.339, 0.679), abs=5e-4)
    assert 0.5 + bonus(100, 20) > 0.6 + bonus(100, 80)
    assert bonus(100, 80) / bonus(100, 20) == pytest.approx(0.5)


def test_ucb1_bonus_is_the_hoeffding_radius_at_level_t_to_the_minus_four():
    t, pulls = 1000, 37
    radius = math.sqrt(2 * math.log(t) / pulls)
    assert math.exp(-2 * pulls * radius**2) == pytest.approx(t**-4)


def test_ucb1_regret_bound_for_the_simulated_arms():
    gaps = [0.3, 0.1]
    bound = sum(8 * math.log(5000) / g + (1 + math.pi**2 / 3) * g for g in gaps)
    assert bound == pytest.approx(910, abs=1)


def n_step_return(rewards, bootstrap, gamma):
    n = len(rewards)
    return sum(gamma**k * r for k, r in enumerate(rewards)) + gamma**n * bootstrap


def test_n_step_worked_example():
    assert n_step_return([1.0], 4.0, 0.9) == pytest.approx(4.6)
    assert n_step_return([1.0, 0.0, 2.0], 5.0, 0.9) == pytest.approx(6.265)
    shifted = n_step_return([1.0, 0.0, 2.0], 6.0, 0.9)
    assert shifted - n_step_return([1.0, 0.0, 2.0], 5.0, 0.9) == pytest.approx(0.729)
    assert [(1 - 0.9) * 0.9 ** (n - 1) for n in (1, 2, 3)] == pytest.approx([0.1, 0.09, 0.081])


def test_n_step_return_recursion():
    rewards = list(RNG.standard_normal(6))
    value_at_end, gamma = 2.5, 0.8
    whole = n_step_return(rewards, value_at_end, gamma)
    assert whole == pytest.approx(
        rewards[0] + gamma * n_step_return(rewards[1:], value_at_end, gamma)
    )


def test_dice_worked_example_and_iou_maps():
    overlap, predicted, true = 80, 100, 100
    dice = 2 * overlap / (predicted + true)
    iou = overlap / (predicted + true - overlap)
    assert (dice, iou) == pytest.approx((0.80, 0.667), abs=5e-4)
    assert 2 * iou / (1 + iou) == pytest.approx(dice)
    half = 0.5
    assert 2 * half / (1 + half) == pytest.approx(0.667, abs=5e-4)
    assert half / (2 - half) == pytest.approx(0.333, abs=5e-4)


def test_dice_equals_pixel_f1():
    truth = RNG.random(500) < 0.2
    predicted = RNG.random(500) < 0.25
    tp = (truth & predicted).sum()
    precision, recall = tp / predicted.sum(), tp / truth.sum()
    f1 = 2 * precision * recall / (precision + recall)
    assert 2 * tp / (truth.sum() + predicted.sum()) == pytest.approx(f1)


def test_depthwise_separable_counts():
    k, c_in, c_out, side = 3, 256, 256, 56
    standard = k * k * c_in * c_out
    separable = k * k * c_in + c_in * c_out
    assert (standard, separable) == (589_824, 67_840)
    assert separable / standard == pytest.approx(1 / c_out + 1 / k**2)
    assert separable / standard == pytest.approx(0.1150, abs=5e-5)
    assert standard / separable == pytest.approx(8.7, abs=0.05)
    assert (standard * side**2 / 1e9, separable * side**2 / 1e9) == pytest.approx(
        (1.85, 0.21), abs=5e-3
    )
    assert c_in * c_out / separable == pytest.approx(0.97, abs=5e-3)


def test_factorised_kernel_has_rank_one_per_input_channel():
    depthwise = RNG.standard_normal((4, 3, 3))
    pointwise = RNG.standard_normal((6, 4))
    kernel = pointwise[:, :, None, None] * depthwise[None]
    for i in range(4):
        assert np.linalg.matrix_rank(kernel[:, i].reshape(6, 9)) == 1


def test_soft_capping_table():
    cap = 50.0
    logits = np.array([10.0, 50.0, 100.0, 200.0])
    assert cap * np.tanh(logits / cap) == pytest.approx([9.87, 38.08, 48.20, 49.97], abs=5e-3)
    slopes = 1 - np.tanh(logits / cap) ** 2
    assert slopes == pytest.approx([0.961, 0.420, 0.071, 0.0013], abs=5e-4)
    assert 30 * math.tanh(60 / 30) == pytest.approx(28.92, abs=5e-3)


def silhouette_values(points, labels):
    distances = np.sqrt(((points[:, None] - points[None]) ** 2).sum(-1))
    values = np.zeros(len(points))
    for i, label in enumerate(labels):
        own = labels == label
        if own.sum() < 2:
            continue
        a = distances[i, own].sum() / (own.sum() - 1)
        b = min(distances[i, labels == other].mean() for other in set(labels) - {label})
        values[i] = (b - a) / max(a, b)
    return values


def test_silhouette_worked_points():
    def score(a, b):
        return (b - a) / max(a, b)

    assert score(1, 4) == pytest.approx(0.75)
    assert score(2, 2.2) == pytest.approx(0.091, abs=5e-4)
    assert score(3, 2) == pytest.approx(-1 / 3)


def test_silhouette_peaks_at_the_true_number_of_blobs():
    rng = np.random.default_rng(0)
    centres = np.array([[0, 0], [6, 0], [0, 6]])
    points = np.concatenate([rng.normal(c, 1.0, (40, 2)) for c in centres])

    def kmeans(k):
        centroids = points[rng.choice(len(points), k, replace=False)]
        for _ in range(50):
            labels = ((points[:, None] - centroids[None]) ** 2).sum(-1).argmin(1)
            centroids = np.array(
                [
                    points[labels == j].mean(0) if (labels == j).any() else centroids[j]
                    for j in range(k)
                ]
            )
        return labels

    scores = {
        k: max(silhouette_values(points, kmeans(k)).mean() for _ in range(3)) for k in (2, 3, 4, 5)
    }
    assert scores == pytest.approx({2: 0.55, 3: 0.68, 4: 0.57, 5: 0.51}, abs=0.01)
    assert max(scores, key=scores.get) == 3


def test_adaboost_worked_numbers():
    def vote(error):
        return 0.5 * math.log((1 - error) / error)

    assert vote(0.2) == pytest.approx(0.693, abs=5e-4)
    assert math.exp(vote(0.2)) == pytest.approx(2)
    error, factor = 0.2, 2.0
    assert error * factor / (error * factor + (1 - error) / factor) == pytest.approx(0.5)
    round_bound = 2 * math.sqrt(error * (1 - error))
    assert round_bound == pytest.approx(0.8)
    assert round_bound**10 == pytest.approx(0.107, abs=5e-4)
    assert (vote(0.45), vote(0.5), vote(0.3)) == pytest.approx((0.100, 0, 0.42), abs=5e-3)


@pytest.mark.parametrize("error", [0.05, 0.2, 0.37, 0.49])
def test_adaboost_vote_minimises_the_exponential_loss(error):
    alphas = np.linspace(-1, 4, 500_001)
    loss = (1 - error) * np.exp(-alphas) + error * np.exp(alphas)
    assert alphas[loss.argmin()] == pytest.approx(0.5 * math.log((1 - error) / error), abs=1e-4)
    # After re-weighting, the learner's mistakes hold exactly half of the weight.
    wrong = error * math.sqrt((1 - error) / error)
    right = (1 - error) * math.sqrt(error / (1 - error))
    assert wrong / (wrong + right) == pytest.approx(0.5)


@pytest.mark.parametrize(
    ("tau", "first", "value"),
    [(0.1, 0.0000454, 2.0000045), (1.0, 0.269, 2.313), (10.0, 0.475, 8.444)],
)
def test_soft_value_table(tau, first, value):
    q = np.array([1.0, 2.0])
    policy = softmax(q / tau)
    assert policy[0] == pytest.approx(first, rel=2e-3)
    assert tau * np.log(np.exp(q / tau).sum()) == pytest.approx(value, abs=5e-4)
    entropy = -(policy * np.log(policy)).sum()
    assert policy @ q + tau * entropy == pytest.approx(value, abs=5e-4)


def test_soft_value_worked_decomposition():
    q = np.array([1.0, 2.0])
    policy = softmax(q)
    assert policy @ q == pytest.approx(1.731, abs=5e-4)
    assert -(policy * np.log(policy)).sum() == pytest.approx(0.582, abs=5e-4)
    assert math.log(math.e + math.e**2) == pytest.approx(2.313, abs=5e-4)
    wide = softmax(q / 10)
    assert -10 * (wide * np.log(wide)).sum() == pytest.approx(6.92, abs=5e-3)
    assert 2 + 10 * math.log(2) == pytest.approx(8.93, abs=5e-3)


@pytest.mark.parametrize(
    ("side", "patch", "tokens"), [(224, 16, 196), (224, 14, 256), (336, 14, 576), (224, 8, 784)]
)
def test_vit_token_counts(side, patch, tokens):
    assert (side // patch) ** 2 == side * side // patch**2 == tokens


def test_vit_embedding_weights_and_patch_halving_cost():
    assert 16 * 16 * 3 == 768
    assert 16 * 16 * 3 * 768 == 589_824
    coarse, fine = (224 // 16) ** 2, (224 // 8) ** 2
    assert fine / coarse == 4
    assert (fine / coarse) ** 2 == 16


def test_mixup_worked_example():
    assert -0.7 * math.log(0.6) - 0.3 * math.log(0.4) == pytest.approx(0.632, abs=5e-4)
    assert (-math.log(0.6), -math.log(0.4)) == pytest.approx((0.511, 0.916), abs=5e-4)


def test_mixup_beta_mass_near_the_ends():
    # P(lambda < 0.1) for Beta(0.2, 0.2), integrated after substituting x = u^5,
    # which removes the x^-0.8 singularity: the integrand becomes 5 (1 - u^5)^-0.8.
    alpha = 0.2
    beta_function = math.gamma(alpha) ** 2 / math.gamma(2 * alpha)
    u = np.linspace(0, 0.1**alpha, 200_001)
    integrand = 5 * (1 - u**5) ** (alpha - 1)
    lower_tail = ((integrand[1:] + integrand[:-1]) / 2 * np.diff(u)).sum() / beta_function
    assert 2 * lower_tail == pytest.approx(0.673, abs=1e-3)


def effective_number(count, beta):
    return (1 - beta**count) / (1 - beta)


@pytest.mark.parametrize(
    ("count", "expected"), [(10, 9.96), (100, 95.2), (1000, 632.3), (10_000, 999.95)]
)
def test_effective_number_table(count, expected):
    assert effective_number(count, 0.999) == pytest.approx(expected, abs=0.05)
    assert effective_number(count, 0.999) == pytest.approx(sum(0.999**k for k in range(count)))


def test_effective_number_weight_ratios():
    ratio = effective_number(10_000, 0.999) / effective_number(10, 0.999)
    assert ratio == pytest.approx(100.4, abs=0.05)
    assert effective_number(10_000, 0.9999) == pytest.approx(6321, abs=1)
    assert effective_number(10_000, 0.9999) / effective_number(10, 0.9999) == pytest.approx(
        632, abs=1
    )


@pytest.mark.parametrize(("actions", "epsilon"), [(4, 0.1), (2, 0.5), (10, 0.05)])
def test_epsilon_greedy_probabilities_by_enumeration(actions, epsilon):
    greedy = 0
    probabilities = np.zeros(actions)
    probabilities[greedy] += 1 - epsilon  # greedy branch
    probabilities += epsilon / actions  # uniform exploratory branch over all actions
    assert probabilities[greedy] == pytest.approx(1 - epsilon + epsilon / actions)
    assert probabilities[1:] == pytest.approx(np.full(actions - 1, epsilon / actions))
    assert probabilities.sum() == pytest.approx(1)


def test_epsilon_greedy_worked_numbers():
    epsilon, actions = 0.1, 4
    assert 1 - epsilon + epsilon / actions == pytest.approx(0.925)
    assert (actions - 1) * epsilon / actions * 1_000_000 == pytest.approx(75_000)
    assert epsilon / (actions - 1) == pytest.approx(0.033, abs=5e-4)
