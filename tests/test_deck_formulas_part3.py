"""Figures added or corrected in the probability, metrics, classical, losses,
trees and unsupervised decks (review part 3), recomputed independently of the
cards' own snippets.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

RNG = np.random.default_rng(2312)


# -- class-balanced-loss ---------------------------------------------------------


def test_effective_number_follows_from_the_growing_overlap_probability():
    beta = 0.999
    volume = 1 / (1 - beta)  # beta = (N - 1)/N
    expected = 1.0
    for _sample in range(2, 1001):
        overlap = expected / volume  # chance that sample n lands in the covered part
        expected = overlap * expected + (1 - overlap) * (expected + 1)
    assert expected == pytest.approx((1 - beta**1000) / (1 - beta))
    assert expected == pytest.approx(632.3, abs=0.05)


def test_a_constant_overlap_probability_would_grow_linearly_instead():
    beta, n = 0.999, 1000
    linear = 1 + (n - 1) * (1 - beta)
    assert linear == pytest.approx(2.0, abs=1e-3)


# -- average-precision -------------------------------------------------------------


def ap_of(labels_in_rank_order):
    hits = np.asarray(labels_in_rank_order)
    precision = np.cumsum(hits) / np.arange(1, hits.size + 1)
    return precision[hits == 1].mean()


def exact_random_ap(n_pos, n_total):
    harmonic = sum(1 / r for r in range(1, n_total + 1))
    return harmonic / n_total + (n_pos - 1) / (n_total - 1) * (1 - harmonic / n_total)


def test_random_ap_of_the_worked_example_is_0_580_not_the_prevalence():
    labels = np.array([1, 1, 1, 0, 0, 0, 0])
    simulated = np.mean([ap_of(RNG.permutation(labels)) for _ in range(40_000)])
    assert exact_random_ap(3, 7) == pytest.approx(0.580, abs=5e-4)
    assert simulated == pytest.approx(exact_random_ap(3, 7), abs=0.005)
    assert 3 / 7 < 0.44  # the prevalence the card used to quote


def test_random_ap_with_one_positive_in_a_thousand():
    assert exact_random_ap(1, 1000) == pytest.approx(0.0075, abs=1e-4)
    assert exact_random_ap(1, 1000) / 0.001 == pytest.approx(7.5, abs=0.05)


def test_random_ap_tends_to_the_prevalence_with_many_positives():
    assert exact_random_ap(400, 20_000) == pytest.approx(0.02, abs=5e-4)


# -- ndcg --------------------------------------------------------------------------


def ndcg(rels, linear=False):
    rels = np.asarray(rels, dtype=float)
    gains = rels if linear else 2**rels - 1
    ideal_rels = np.sort(rels)[::-1]
    ideal = ideal_rels if linear else 2**ideal_rels - 1
    discount = np.log2(np.arange(2, rels.size + 2))
    return (gains / discount).sum() / (ideal / discount).sum()


def test_ndcg_loss_splits_between_the_swap_and_the_tail():
    assert ndcg([3, 2, 3, 0, 1, 2]) == pytest.approx(0.949, abs=5e-4)
    assert ndcg([3, 2, 3, 2, 1, 0]) == pytest.approx(0.964, abs=5e-4)
    assert ndcg([3, 3, 2, 0, 1, 2]) == pytest.approx(0.985, abs=5e-4)


def test_ndcg_with_sklearns_linear_gain():
    assert ndcg([3, 2, 3, 0, 1, 2], linear=True) == pytest.approx(0.961, abs=5e-4)


# -- accuracy-confidence-interval ----------------------------------------------------


def test_sample_size_to_detect_a_one_point_difference_with_80_percent_power():
    from statistics import NormalDist

    z = NormalDist().inv_cdf
    per_model = (z(0.975) + z(0.8)) ** 2 * 2 * 0.25 / 0.01**2
    assert per_model == pytest.approx(39_200, rel=0.005)
    single_margin = z(0.975) ** 2 * 0.25 / 0.01**2
    assert per_model / single_margin == pytest.approx(4.09, abs=0.01)
    assert 4 / z(0.975) ** 2 == pytest.approx(1.041, abs=5e-4)  # the z = 2 shortcut


# -- calibration-ece -----------------------------------------------------------------


def top_confidence(logits, tau):
    e = np.exp(np.asarray(logits, dtype=float) / tau)
    return (e / e.sum()).max()


def test_temperature_can_reorder_confidences_across_examples():
    a, b = [3, 0, 0], [2, 1.9, -10]
    assert top_confidence(a, 1) == pytest.approx(0.909, abs=5e-4)
    assert top_confidence(b, 1) == pytest.approx(0.525, abs=5e-4)
    assert top_confidence(a, 5) == pytest.approx(0.477, abs=5e-4)
    assert top_confidence(b, 5) == pytest.approx(0.483, abs=5e-4)
    assert np.argmax(a) == np.argmax(np.asarray(a) / 5)


# -- classical -------------------------------------------------------------------------


def test_logistic_loss_in_nats_dips_below_the_zero_one_loss():
    crossing = -math.log(math.e - 1)
    assert crossing == pytest.approx(-0.541, abs=5e-4)
    assert math.log(2) < 1  # at margin 0 the 0-1 loss is 1
    assert math.log1p(math.exp(-(crossing - 1e-6))) > 1 > math.log1p(math.exp(-(crossing + 1e-6)))
    for margin in np.linspace(-3, 3, 61):
        assert math.log2(1 + math.exp(-margin)) >= (1.0 if margin <= 0 else 0.0)


def test_ridge_has_an_inner_product_dual_too_and_it_is_not_sparse():
    x = RNG.normal(size=(40, 2))
    y = np.sign(x[:, 0] + 0.3 * x[:, 1] + 1e-9)
    # kernel ridge: alpha = (K + lambda I)^-1 y uses every training point
    alpha = np.linalg.solve(x @ x.T + 0.1 * np.eye(40), y)
    assert np.all(np.abs(alpha) > 1e-8)


def test_valid_three_by_three_convolutions_shrink_by_two_per_layer():
    size = 56
    for _ in range(10):
        size = size - 3 + 1
    assert size == 36


def test_naive_bayes_score_is_linear_in_the_counts():
    log_theta = np.log(np.array([[0.4, 0.3, 0.1, 0.2], [0.1, 0.1, 0.4, 0.4]]))
    prior = np.log(np.array([0.5, 0.5]))
    counts = RNG.integers(0, 5, size=(3, 4))
    scores = prior + counts @ log_theta.T
    doubled = prior + (2 * counts) @ log_theta.T
    assert np.allclose(doubled - prior, 2 * (scores - prior))


# -- unsupervised --------------------------------------------------------------------


def test_dot_product_and_cosine_rank_two_candidates_differently():
    w = np.array([1.0, 0.0])
    u, x = np.array([3.0, 4.0]), np.array([0.5, 0.1])
    assert u @ w > x @ w
    cos = lambda v: v @ w / np.linalg.norm(v)  # noqa: E731
    assert cos(u) == pytest.approx(0.6) and cos(x) == pytest.approx(0.981, abs=5e-4)
    assert cos(x) > cos(u)


# -- trees -----------------------------------------------------------------------------


def test_log_loss_example_weights_stay_bounded():
    margins = np.linspace(-20, 5, 200)
    p_wrong = 1 / (1 + np.exp(margins))  # |y - p| for a label-1 example at score F
    assert np.all(p_wrong <= 1)
    assert np.exp(-margins).max() > 1e8  # AdaBoost's exponential weights


def test_soft_dice_gradient_of_the_worked_example():
    overlap, total = 80.0, 200.0  # I = 80, P + G = 100 + 100
    assert 2 * (1 * total - overlap) / total**2 == pytest.approx(0.006)
    assert 2 * (0 * total - overlap) / total**2 == pytest.approx(-0.004)
    # the same formula against finite differences of 2I/(P + G)
    p = RNG.random(30)
    g = (RNG.random(30) < 0.4).astype(float)

    def dice(q):
        return 2 * (q * g).sum() / (q.sum() + g.sum())

    step = 1e-6
    numeric = [(dice(p + step * e) - dice(p - step * e)) / (2 * step) for e in np.eye(30)]
    s = p.sum() + g.sum()
    assert np.allclose(2 * (g * s - (p * g).sum()) / s**2, numeric, atol=1e-8)


def test_precision_from_rates_matches_counts_at_two_prevalences():
    def from_rates(prevalence, tpr, fpr):
        return prevalence * tpr / (prevalence * tpr + (1 - prevalence) * fpr)

    assert from_rates(0.01, 0.9, 0.05) == pytest.approx(90 / (90 + 495))
    assert from_rates(0.10, 0.9, 0.05) == pytest.approx(900 / 1350)
    assert from_rates(0.5, 0.9, 0.05) == pytest.approx(0.9 / 0.95)  # balanced: TPR/(TPR+FPR)


def test_recall_at_k_and_its_cap_when_there_are_more_relevant_documents_than_k():
    relevant, k, hits = 20, 10, 8
    assert hits / relevant == 0.4 and hits / k == 0.8
    assert min(k, relevant) / relevant == 0.5
