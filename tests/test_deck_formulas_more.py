"""The rl, losses, architecture, unsupervised and trees decks, checked by computation.

Each test recomputes, with numpy and independently of the judge and of the
card's own snippet, a number or identity that one of these cards states.
"""

from __future__ import annotations

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
