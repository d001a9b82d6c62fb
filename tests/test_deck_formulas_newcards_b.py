"""Figures of the cards added on branch newcards-b (issue 23 item 6), each
recomputed independently of the card's own snippet.
"""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np
import pytest

RNG = np.random.default_rng(2323)


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


# -- fp8-formats ---------------------------------------------------------------------


def fp8_values(exp_bits, man_bits, ieee):
    bias = 2 ** (exp_bits - 1) - 1
    values = []
    for e in range(2**exp_bits):
        for f in range(2**man_bits):
            top = e == 2**exp_bits - 1
            if (ieee and top) or (not ieee and top and f == 2**man_bits - 1):
                continue
            frac = f / 2**man_bits
            values.append(frac * 2.0 ** (1 - bias) if e == 0 else (1 + frac) * 2.0 ** (e - bias))
    return np.array(values)


def test_fp8_extremes():
    e4m3, e5m2 = fp8_values(4, 3, ieee=False), fp8_values(5, 2, ieee=True)
    assert e4m3.max() == 448 and e5m2.max() == 57344
    assert fp8_values(4, 3, ieee=True).max() == 240  # the IEEE-style E4M3
    assert 1.875 * 2**8 == 480
    assert sorted(set(e4m3))[1] == 2.0**-9 and sorted(set(e5m2))[1] == 2.0**-16
    assert e4m3[e4m3 >= 1].min() == 1 and e4m3[e4m3 > 1].min() - 1 == 0.125
    # rounding to nearest errs by at most half the gap: 6.25 % and 12.5 %
    grid = np.linspace(1, 2, 10_001)
    for values, worst in ((e4m3, 0.0625), (e5m2, 0.125)):
        nearest = values[np.abs(values[None, :] - grid[:, None]).argmin(axis=1)]
        assert np.max(np.abs(nearest - grid) / grid) == pytest.approx(worst / (1 + worst), rel=1e-3)
        assert worst == 2.0 ** -(3 if values is e4m3 else 2) / 2


def test_fp8_rounding_of_the_worked_example():
    e4m3, e5m2 = fp8_values(4, 3, ieee=False), fp8_values(5, 2, ieee=True)

    def nearest(values, x):
        return values[np.argmin(np.abs(values - x))]

    assert nearest(e4m3, 300) == 288 and nearest(e5m2, 300) == 320
    assert nearest(e4m3, 0.3) == 0.3125 and nearest(e5m2, 0.3) == 0.3125
    assert nearest(e5m2, 1000) == 1024
    in_quarter = e5m2[(e5m2 >= 0.25) & (e5m2 <= 0.5)]
    assert np.diff(np.sort(in_quarter)).max() == 0.0625  # E5M2 spacing in [0.25, 0.5)


# -- adafactor -----------------------------------------------------------------------


def test_adafactor_reconstruction_of_the_worked_example():
    v = np.array([[1.0, 2.0], [3.0, 1.0]])
    rows, cols = v.sum(1), v.sum(0)
    assert rows.tolist() == [3, 4] and cols.tolist() == [4, 3]
    v_hat = np.outer(rows, cols) / v.sum()
    assert np.round(v_hat, 3).tolist() == [[1.714, 1.286], [2.286, 1.714]]
    assert 4096 * 4096 // (4096 + 4096) == 2048


def test_adafactor_factorisation_minimises_i_divergence_among_rank_one():
    v = RNG.random((4, 3)) + 0.1
    best = np.outer(v.sum(1), v.sum(0)) / v.sum()

    def i_div(a):
        return np.sum(v * np.log(v / a) - v + a)

    for _ in range(200):
        other = np.outer(RNG.random(4) + 0.05, RNG.random(3) + 0.05) * v.sum()
        assert i_div(best) <= i_div(other) + 1e-12


# -- shampoo-preconditioner ------------------------------------------------------------


def test_shampoo_single_step_equalises_the_directions():
    root = 9.0**-0.25
    assert root == pytest.approx(0.577, abs=5e-4)
    assert root * 3 * root == pytest.approx(1.0)
    side = 4096
    assert 2 * side**2 == pytest.approx(33.6e6, rel=2e-3)
    assert float(side) ** 4 == pytest.approx(2.8e14, rel=0.02)


# -- muon-orthogonalised-momentum ------------------------------------------------------


def test_muon_cubic_newton_schulz_on_singular_values():
    small, large = 1 / math.sqrt(10), 3 / math.sqrt(10)
    assert (round(large, 3), round(small, 3)) == (0.949, 0.316)
    trail = []
    for _ in range(6):
        small, large = 1.5 * small - 0.5 * small**3, 1.5 * large - 0.5 * large**3
        trail.append(round(small, 3))
        if len(trail) == 1:
            assert round(large, 3) == 0.996
        if len(trail) == 2:
            assert round(large, 3) == 1.0
    assert trail == [0.459, 0.64, 0.829, 0.958, 0.997, 1.0]


# -- k-fold-cross-validation -----------------------------------------------------------


def test_k_fold_training_sizes():
    n, k = 1000, 5
    assert n * (k - 1) // k == 800 and n // k == 200
    assert n * (n - 1) // n == 999  # leave-one-out


def test_feature_selection_outside_the_folds_reports_noise_as_signal():
    def top_features(xs, ys, top=20):
        xc, yc = xs - xs.mean(0), ys - ys.mean()
        corr = np.abs(xc.T @ yc) / (np.linalg.norm(xc, axis=0) * np.linalg.norm(yc))
        return np.argsort(corr)[-top:]

    def cv(x, y, inside):
        folds = np.array_split(RNG.permutation(len(y)), 5)
        outside = top_features(x, y)
        hits = 0
        for test in folds:
            train = np.setdiff1d(np.arange(len(y)), test)
            feats = top_features(x[train], y[train]) if inside else outside
            c0 = x[train][y[train] == 0][:, feats].mean(0)
            c1 = x[train][y[train] == 1][:, feats].mean(0)
            xt = x[test][:, feats]
            pred = np.linalg.norm(xt - c1, axis=1) < np.linalg.norm(xt - c0, axis=1)
            hits += (pred == y[test]).sum()
        return hits / len(y)

    leaky, honest = [], []
    for _ in range(10):
        x = RNG.standard_normal((50, 5000))
        y = RNG.permutation(np.repeat([0, 1], 25))
        leaky.append(cv(x, y, inside=False))
        honest.append(cv(x, y, inside=True))
    assert np.mean(leaky) == pytest.approx(0.99, abs=0.03)
    assert np.mean(honest) == pytest.approx(0.5, abs=0.12)


# -- ab-test-sample-size ----------------------------------------------------------------


def test_ab_sample_size_of_the_worked_example():
    za, zb = NormalDist().inv_cdf(0.975), NormalDist().inv_cdf(0.8)
    assert (za + zb) ** 2 == pytest.approx(7.85, abs=0.005)
    assert 2 * (za + zb) ** 2 == pytest.approx(15.7, abs=0.01)
    n = 2 * (za + zb) ** 2 * 0.09 / 0.01**2
    assert round(n) == 14128
    rule = 16 * 0.09 / 0.01**2
    assert rule == pytest.approx(14400) and rule / n - 1 < 0.02
    assert 2 * (za + zb) ** 2 * 0.09 / 0.005**2 == pytest.approx(56_500, rel=0.001)
    assert 2 * (za + NormalDist().inv_cdf(0.9)) ** 2 == pytest.approx(21.0, abs=0.05)


# -- cost-sensitive-threshold -----------------------------------------------------------


def test_cost_threshold_of_the_fraud_example():
    c_fp, c_fn = 10.0, 90.0
    threshold = c_fp / (c_fp + c_fn)
    assert threshold == pytest.approx(0.1)
    for p, yes, no in [(0.15, 8.5, 13.5), (0.08, 9.2, 7.2), (0.1, 9.0, 9.0)]:
        assert (1 - p) * c_fp == pytest.approx(yes) and p * c_fn == pytest.approx(no)


# -- prior-shift-correction -------------------------------------------------------------


def test_prior_shift_of_the_fraud_example():
    odds = 0.9 / 0.1
    factor = (0.01 / 0.99) / (0.5 / 0.5)
    assert factor == pytest.approx(0.0101, abs=5e-5)
    corrected_odds = odds * factor
    assert corrected_odds == pytest.approx(0.0909, abs=5e-5)
    corrected = corrected_odds / (1 + corrected_odds)
    assert corrected == pytest.approx(0.083, abs=5e-4) and corrected < 0.1


# -- fisher-cramer-rao -------------------------------------------------------------------


def test_cramer_rao_for_a_click_rate():
    q, n = 0.2, 400
    info = 1 / (q * (1 - q))
    assert info == pytest.approx(6.25)
    assert n * info == pytest.approx(2500) and 1 / (n * info) == pytest.approx(0.0004)
    assert math.sqrt(1 / (n * info)) == pytest.approx(0.02)
    assert q * (1 - q) / n == pytest.approx(1 / (n * info))


# -- ols-coefficient-variance ------------------------------------------------------------


def test_ols_variances_of_the_worked_example():
    x = np.arange(1.0, 6.0)
    design = np.column_stack([np.ones(5), x])
    gram = design.T @ design
    assert gram.tolist() == [[5, 15], [15, 55]] and np.linalg.det(gram) == pytest.approx(50)
    assert np.allclose(np.linalg.inv(gram), [[1.1, -0.3], [-0.3, 0.1]])
    assert np.allclose(4 * np.linalg.inv(gram), [[4.4, -1.2], [-1.2, 0.4]])
    assert math.sqrt(0.4) == pytest.approx(0.632, abs=5e-4)
    spread = np.array([-3.0, 0, 3, 6, 9])
    assert ((spread - spread.mean()) ** 2).sum() == 90


def test_slope_design_on_the_unit_interval():
    ends = np.array([0.0] * 5 + [1.0] * 5)
    grid = np.linspace(0, 1, 10)
    assert ((ends - ends.mean()) ** 2).sum() == pytest.approx(2.5)
    assert ((grid - grid.mean()) ** 2).sum() == pytest.approx(1.02, abs=0.005)


# -- t-sne -------------------------------------------------------------------------------


def test_t_sne_perplexity_and_kernel_tails():
    assert math.log2(32) == pytest.approx(5)
    uniform = np.full(32, 1 / 32)
    assert 2 ** (-(uniform * np.log2(uniform)).sum()) == pytest.approx(32)
    assert math.log(32) == pytest.approx(3.47, abs=5e-3)  # the entropy in nats
    gauss, student = math.exp(-9), 1 / (1 + 3**2)
    assert gauss == pytest.approx(0.00012, abs=5e-6) and student == pytest.approx(0.1)
    assert student / gauss == pytest.approx(800, rel=0.02)
    assert math.exp(-1) == pytest.approx(0.37, abs=5e-3)


# -- umap-fuzzy-cross-entropy ----------------------------------------------------------------


def fuzzy_cross_entropy(v, w):
    return v * math.log(v / w) + (1 - v) * math.log((1 - v) / (1 - w))


def test_umap_losses_of_the_worked_example():
    near, far = 1.0, 3.0
    assert 1 / (1 + near**2) == 0.5 and 1 / (1 + far**2) == pytest.approx(0.1)
    assert 0.9 * math.log(0.9 / 0.1) == pytest.approx(1.978, abs=5e-4)
    assert 0.1 * math.log(0.1 / 0.9) == pytest.approx(-0.220, abs=5e-4)
    assert fuzzy_cross_entropy(0.9, 0.1) == pytest.approx(1.758, abs=5e-4)
    assert 0.9 * math.log(1.8) == pytest.approx(0.529, abs=5e-4)
    assert 0.1 * math.log(0.2) == pytest.approx(-0.161, abs=5e-4)
    assert fuzzy_cross_entropy(0.9, 0.5) == pytest.approx(0.368, abs=5e-4)
    assert 0.99 * math.log(0.99 / 0.5) == pytest.approx(0.676, abs=5e-4)
    assert 0.99 * math.log(0.99 / 0.9) == pytest.approx(0.094, abs=5e-4)


# -- dbscan --------------------------------------------------------------------------------


def test_dbscan_worked_example_by_brute_force():
    x = np.array([0, 1, 2, 3, 10, 11, 12, 20], dtype=float)
    eps, min_pts = 1.5, 3
    counts = [(np.abs(x - v) <= eps).sum() for v in x]
    assert counts == [2, 3, 3, 2, 2, 3, 2, 1]
    core = x[np.array(counts) >= min_pts]
    assert core.tolist() == [1, 2, 11]
    border = [v for v in x if v not in core and np.any(np.abs(core - v) <= eps)]
    noise = [v for v in x if v not in core and v not in border]
    assert border == [0, 3, 10, 12] and noise == [20]


# -- spectral-clustering ---------------------------------------------------------------------


def two_triangles(bridge):
    adjacency = np.zeros((6, 6))
    for group in ([0, 1, 2], [3, 4, 5]):
        for i in group:
            for j in group:
                adjacency[i, j] = float(i != j)
    adjacency[2, 3] = adjacency[3, 2] = bridge
    return np.diag(adjacency.sum(1)) - adjacency


def test_laplacian_spectrum_counts_components():
    assert np.allclose(np.linalg.eigvalsh(two_triangles(0.0)), [0, 0, 3, 3, 3, 3])
    bridged = np.linalg.eigvalsh(two_triangles(0.1))
    assert bridged[0] == pytest.approx(0, abs=1e-12)
    assert bridged[1] == pytest.approx(0.064, abs=5e-4)
    assert bridged[-1] == pytest.approx(3.136, abs=5e-4)
    assert two_triangles(0.0)[0].tolist() == [2, -1, -1, 0, 0, 0]


# -- word2vec-negative-sampling ------------------------------------------------------------


def log_sigmoid(z):
    return -math.log1p(math.exp(-z))


def test_sgns_objective_of_the_worked_example():
    assert log_sigmoid(2.0) == pytest.approx(-0.127, abs=5e-4)
    assert log_sigmoid(-1.0) == pytest.approx(-1.313, abs=5e-4)
    assert log_sigmoid(1.0) == pytest.approx(-0.313, abs=5e-4)
    objective = log_sigmoid(2.0) + log_sigmoid(-1.0) + log_sigmoid(1.0)
    assert objective == pytest.approx(-1.753, abs=5e-4)


def test_sgns_noise_distribution_flattens_frequencies():
    powered = np.array([0.9, 0.1]) ** 0.75
    assert powered.round(3).tolist() == [0.924, 0.178]
    assert (powered / powered.sum()).round(3).tolist() == [0.839, 0.161]


# -- matrix-factorisation-als ----------------------------------------------------------------


def test_one_factor_als_updates():
    q, r = np.array([2.0, 1.0]), np.array([4.0, 3.0])
    assert q @ r == 11 and q @ q + 1 == 6
    p = (q @ r) / (q @ q + 1)
    assert p == pytest.approx(1.833, abs=5e-4)
    assert (p * q).round(2).tolist() == [3.67, 1.83]
    assert (q @ r) / (q @ q) == pytest.approx(2.2)
    assert (q @ r) / (q @ q + 10) == pytest.approx(0.733, abs=5e-4)
    assert 3 / (1 + 1) == 1.5


# -- xgboost-split-gain -----------------------------------------------------------------------


def test_xgboost_gain_of_the_worked_example():
    lam = 1.0

    def score(g, h):
        return g**2 / (h + lam)

    gl, hl, gr, hr = -6.0, 3.0, 3.0, 2.0
    assert -(gl + gr) / (hl + hr + lam) == pytest.approx(0.5)
    assert score(gl + gr, hl + hr) == pytest.approx(1.5)
    assert -gl / (hl + lam) == pytest.approx(1.5) and -gr / (hr + lam) == pytest.approx(-1.0)
    assert score(gl, hl) == 9 and score(gr, hr) == 3
    half = 0.5 * (score(gl, hl) + score(gr, hr) - score(gl + gr, hl + hr))
    assert half - 0.5 == pytest.approx(4.75)
    assert half - 6 == pytest.approx(-0.75)


# -- tree-feature-importance ------------------------------------------------------------------


def test_permutation_importance_of_the_worked_example():
    base, shuffled_a, shuffled_b = 0.85, 0.71, 0.85
    assert base - shuffled_a == pytest.approx(0.14) and base - shuffled_b == 0


# -- fid ---------------------------------------------------------------------------------------


def fid_1d(m_r, s_r, m_g, s_g):
    return (m_r - m_g) ** 2 + s_r**2 + s_g**2 - 2 * math.sqrt(s_r**2 * s_g**2)


def test_fid_one_dimensional_worked_example():
    m_r, s_r, m_g, s_g = 0.0, 1.0, 0.5, 0.6
    assert (m_r - m_g) ** 2 == 0.25 and (s_r - s_g) ** 2 == pytest.approx(0.16)
    assert fid_1d(m_r, s_r, m_g, s_g) == pytest.approx(0.41)
    assert fid_1d(m_r, s_r, m_r, 0.1) == pytest.approx(0.81)


def test_fid_matches_the_squared_wasserstein_distance_of_samples():
    # in 1-D the 2-Wasserstein distance couples sorted samples
    real = np.sort(RNG.normal(0.0, 1.0, 200_000))
    fake = np.sort(RNG.normal(0.5, 0.6, 200_000))
    assert np.mean((real - fake) ** 2) == pytest.approx(0.41, abs=0.01)


# -- word-error-rate ---------------------------------------------------------------------------


def word_edits(ref, hyp):
    row = list(range(len(hyp) + 1))
    for i, ref_word in enumerate(ref, 1):
        prev, row[0] = row[0], i
        for j, hyp_word in enumerate(hyp, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ref_word != hyp_word))
    return row[-1]


def test_word_error_rates_of_the_card():
    ref = ["the", "cat", "sat", "on", "the", "mat"]
    hyp = ["the", "cat", "sit", "on", "mat", "today"]
    assert word_edits(ref, hyp) / len(ref) == 0.5
    short, chatty = list("abc"), list("vwxyzpq")
    rate = word_edits(short, chatty) / len(short)
    assert rate == pytest.approx(7 / 3) and round(rate, 2) == 2.33


# -- rouge-n ------------------------------------------------------------------------------------


def test_rouge_scores_of_the_worked_example():
    from collections import Counter

    def grams(words, n):
        return Counter(tuple(words[i : i + n]) for i in range(len(words) - n + 1))

    ref = ["the", "cat", "sat", "on", "the", "mat"]
    cand = ["the", "cat", "lay", "on", "the", "mat", "today"]
    expected = {1: (5, 6, 7, 0.833, 0.714, 0.769), 2: (3, 5, 6, 0.6, 0.5, 0.545)}
    for n, (m, r, c, recall, precision, f1) in expected.items():
        ref_grams, cand_grams = grams(ref, n), grams(cand, n)
        assert sum(ref_grams.values()) == r and sum(cand_grams.values()) == c
        assert sum((ref_grams & cand_grams).values()) == m
        assert m / r == pytest.approx(recall, abs=5e-4)
        assert m / c == pytest.approx(precision, abs=5e-4)
        assert 2 * m / (c + r) == pytest.approx(f1, abs=5e-4)
        p, q = m / c, m / r
        assert 2 * p * q / (p + q) == pytest.approx(2 * m / (c + r))


# -- mean-reciprocal-rank -----------------------------------------------------------------------


def test_mrr_of_the_worked_example():
    ranks = [1, 3, 6]
    reciprocal = [1 / r for r in ranks]
    assert sum(reciprocal) / 3 == pytest.approx(0.5)
    assert (sum(reciprocal) + 0) / 4 == pytest.approx(0.375)
    assert len(ranks) / sum(ranks) == pytest.approx(0.3)
    far = [1, 100]
    assert np.mean([1 / r for r in far]) == pytest.approx(0.505)
    assert 1 / np.mean(far) == pytest.approx(0.0198, abs=5e-5)
