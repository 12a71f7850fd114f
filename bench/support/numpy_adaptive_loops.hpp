#pragma once
// dugler2026's adaptive family as a researcher would write it in numpy, one step per batch, each batch's
// products one array. `bench_algorithms` times these beside dpbounds on the same workloads, after
// run_numpy_script's prelude and kNumpyMechanisms.

namespace dpb::bench {

// Python: functions of the samples X (n x d, one per row) and the `dugler_shifted` shift
// C = V diag(lam) V^T (kept factored, as in dpbounds), on A_i = C + x_i x_i^T, at the bench's budget
// eps = 1, delta = 0.01 and the algorithms' defaults (zeta = 0.01, C1 = 4, safety 2, q = 4, K = a = 1,
// radius constant 3, classical Gaussian, step decay 1/(t + 10) with cutoff 1/2 and power 1/2).
//   priv_range(X, V, lam)      Alg. 4 at a random frame Q: m = ceil(4 log(1/(delta zeta)) / eps) = 37
//                              blocks of b = n / 2m pairs, each block's 2b products one array; per block
//                              and column the largest eigenvalue of the paired differences' Gram matrix on
//                              its smaller side over 2b; the stability histogram of the block maxima over
//                              bins [2^(i/4), 2^((i+1)/4)). Returns (2 x the top bin's left end, or None; Q).
//   truncated_mean(X, V, lam)  Alg. 5 as dugler2026.truncated_mean releases it: all n products one array,
//                              d k coordinate histograms of width sqrt(Lhat) (Lhat = 2 sigma^4 = 0.125, the
//                              model's) at (eps/(2dk), delta/(2dk)), the clamp to centre +- R and the
//                              Gaussian for 2 R sqrt(dk) / n. Returns (mean, Q).
//   adadpo(X, V, lam)          Alg. 2 under dpbounds' batch plan (plan(): B = n / log n, even, raised to
//                              the smallest that meets what TRUNCATEDMEAN and PRIVRANGE need over its own
//                              T = n // B steps): per batch PRIVRANGE at zeta / (2T) on the range half,
//                              TRUNCATEDMEAN on the mean half, the projection onto S_Q, the noise
//                              Pi Z + Q GOE_k, a QR.
//   tadadpo(X, V, lam, Q)      Alg. 3 from Q (or a random start), the same plan at zeta / (8T), on the
//                              tangent products Pi A_i Q = Pi C Q + (x - Q z) z^T, z = Q^T x; the noise
//                              Pi Z.
//   two_stage(X, V, lam)       ADADPO on the first half of the samples, TADADPO on the rest from its
//                              output (the bench's feasibility margin: 1 at k > 1, else 2).
// plan() and blocks() are dpbounds' formulas (adaptive_plan, private_range_blocks), so that the batch and
// block counts, which set the cost, are dpbounds' own at every size. range_est (Alg. 4 on given samples) and
// trunc_mean (Alg. 5's centres and clamp) are shared, as dpbounds shares them; the stability histogram is
// kNumpyMechanisms' stable_mode. The differences are copied before their Gram product: numpy's matmul calls
// BLAS only on unit-stride matrices, and a strided view would run its naive loop, three times slower.
constexpr const char* kNumpyAdaptiveLoops = R"(
def gauss_sd(sensitivity, eps, delta):
    return sensitivity * np.sqrt(2 * np.log(1.25 / delta)) / eps
def blocks(zeta, eps=1.0, delta=0.01):
    return max(1, int(np.ceil(4 * np.log(1 / (delta * zeta)) / eps)))
def plan(n, d, k, divisor, margin=2.0, eps=1.0, delta=0.01, zeta=0.01):
    tm = int(np.ceil(margin * (1 + 2 * np.log(2 / (delta / 2 / (d * k))) / (eps / 2 / (d * k)))))
    feasible = lambda B: B >= 2 * max(tm, 2 * blocks(zeta / (divisor * max(1, n // B)), eps, delta) * d)
    B = max(2, 2 * int(n / np.log(max(n, 3)) / 2))
    assert B <= n, "the C++ refuses this size"
    if not feasible(B):  # the smallest feasible even batch: bisect halves lo (infeasible) .. hi (feasible)
        lo, hi = B // 2, n // 2
        assert feasible(2 * hi), "the C++ refuses this size"
        while hi - lo > 1:
            mid = (lo + hi) // 2
            lo, hi = (lo, mid) if feasible(2 * mid) else (mid, hi)
        B = 2 * hi
    return B, n // B
def eta(t, T):
    tau = np.ceil(0.5 * T)
    return 1 / (t + 10) * (1.0 if t <= tau else np.sqrt((tau + 10) / (t + 10)))
def products(X, Q, CQ):
    return CQ + X[:, :, None] * (X @ Q)[:, None, :]
def tangent_products(X, Q, PCQ):
    Z = X @ Q
    return PCQ + (X - Z @ Q.T)[:, :, None] * Z[:, None, :]
def range_est(XR, prod, m, eps, delta):
    b = len(XR) // (2 * m); top = np.empty(m)
    for j in range(m):
        G = prod(XR[2 * j * b:2 * (j + 1) * b])
        D = (G[1::2] - G[::2]).transpose(2, 0, 1).copy()
        S = D.transpose(0, 2, 1) @ D if D.shape[2] <= b else D @ D.transpose(0, 2, 1)
        top[j] = np.linalg.eigvalsh(S)[:, -1].max() / (2 * b)
    best = stable_mode(np.floor(4 * np.log2(top)), eps, delta)
    return None if best is None else 2 * 2 ** (best / 4)
def trunc_mean(G, R, Lhat, eps, delta):
    m, d, k = G.shape; w = np.sqrt(Lhat)
    bins = np.floor(G / w).reshape(m, d * k)
    modes = [stable_mode(bins[:, c], eps / (d * k), delta / (d * k)) for c in range(d * k)]
    C = np.array([0.0 if c is None else c * w for c in modes]).reshape(d, k)
    return np.clip(G, C - R, C + R).mean(axis=0)
def priv_range(X, V, lam, eps=1.0, delta=0.01, zeta=0.01):
    Q = np.linalg.qr(rng.standard_normal(V.shape))[0]
    CQ = V @ (lam[:, None] * (V.T @ Q))
    return range_est(X, lambda XB: products(XB, Q, CQ), blocks(zeta, eps, delta), eps, delta), Q
def truncated_mean(X, V, lam, Lhat=0.125, eps=1.0, delta=0.01, zeta=0.01):
    n, (d, k) = X.shape[0], V.shape
    R = 3 * np.sqrt(Lhat) * np.log(n * d * k / zeta)
    Q = np.linalg.qr(rng.standard_normal((d, k)))[0]
    G = trunc_mean(products(X, Q, V @ (lam[:, None] * (V.T @ Q))), R, Lhat, eps / 2, delta / 2)
    return G + gauss_sd(2 * R * np.sqrt(d * k) / n, eps / 2, delta / 2) * rng.standard_normal((d, k)), Q
def adadpo(X, V, lam, margin=2.0, eps=1.0, delta=0.01, zeta=0.01):
    n, (d, k) = X.shape[0], V.shape
    B, T = plan(n, d, k, 2, margin, eps, delta, zeta); h = B // 2; m = blocks(zeta / (2 * T), eps, delta)
    Q = np.linalg.qr(rng.standard_normal((d, k)))[0]
    for t in range(1, T + 1):
        X0 = X[(t - 1) * B:t * B]; CQ = V @ (lam[:, None] * (V.T @ Q))
        Lhat = range_est(X0[:2 * m * (h // (2 * m))], lambda XB: products(XB, Q, CQ), m, eps, delta)
        if not Lhat: continue
        R = 3 * np.sqrt(Lhat) * np.log(B * d * k / (2 * zeta))
        G = trunc_mean(products(X0[h:], Q, CQ), R, Lhat, eps / 2, delta / 2)
        s = gauss_sd(4 * R * np.sqrt(d * k) / B, eps / 2, delta / 2)
        S = Q.T @ G; G -= Q @ ((S - S.T) / 2)
        Z = s * rng.standard_normal((d, k)); N = s * rng.standard_normal((k, k))
        Q = np.linalg.qr(Q + eta(t, T) * (G + Z - Q @ (Q.T @ Z) + Q @ ((N + N.T) / np.sqrt(2))))[0]
    return Q
def tadadpo(X, V, lam, Q=None, margin=2.0, eps=1.0, delta=0.01, zeta=0.01):
    n, (d, k) = X.shape[0], V.shape
    B, T = plan(n, d, k, 8, margin, eps, delta, zeta); h = B // 2; m = blocks(zeta / (8 * T), eps, delta)
    if Q is None: Q = np.linalg.qr(rng.standard_normal((d, k)))[0]
    for t in range(1, T + 1):
        X0 = X[(t - 1) * B:t * B]; CQ = V @ (lam[:, None] * (V.T @ Q)); PCQ = CQ - Q @ (Q.T @ CQ)
        Lhat = range_est(X0[:2 * m * (h // (2 * m))], lambda XB: tangent_products(XB, Q, PCQ), m, eps, delta)
        if not Lhat: continue
        r = 3 * np.sqrt(Lhat) * np.log(B * d * k * T / zeta)
        Y = trunc_mean(tangent_products(X0[h:], Q, PCQ), r, Lhat, eps / 2, delta / 2)
        Y += gauss_sd(4 * r * np.sqrt(d * k) / B, eps / 2, delta / 2) * rng.standard_normal((d, k))
        Q = np.linalg.qr(Q + eta(t, T) * (Y - Q @ (Q.T @ Y)))[0]
    return Q
def two_stage(X, V, lam):
    margin = 1.0 if V.shape[1] > 1 else 2.0
    w = len(X) // 2
    return tadadpo(X[w:], V, lam, adadpo(X[:w], V, lam, margin), margin)
)";

}  // namespace dpb::bench
