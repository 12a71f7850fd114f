#pragma once
// liu2022's minibatch algorithms and the deflation baselines built from its pieces, as a researcher would
// write them in numpy: one step per batch or per component, each batch one array. `bench_algorithms` times
// these beside dpbounds on the same workloads, after run_numpy_script's prelude, kNumpyMechanisms and
// kNumpyOjaLoops (k_dp_ojas calls its private_oja).

namespace dpb::bench {

// Python: functions of the data X (n x d, one sample per row) at the bench's budget eps = 0.8,
// delta = 1/n and the algorithms' defaults there (zeta = 0.01, K = 4; the oracle's lambda_1 = 5 and gap 4
// of the spiked model).
//   minibatch_private_oja(X)   T = ceil(log(n)^2) steps on batches of B = n // T: the batch's products
//                              x (x^T w) clipped to beta, their mean, the Gaussian at noise multiplier
//                              alpha (the serial calibration), w / ||w||.
//   private_top_eigenvalue(G)  Alg. 4: k = ceil(4 log(1/(delta zeta)) / eps) + 2 subsets of b = m // 2k
//                              paired differences; each subset's largest eigenvalue (its Gram matrix on
//                              the smaller side) over b, then the stability histogram over bins
//                              [2^(i/4), 2^((i+1)/4)).
//   private_mean(G, lam)       Alg. 5: one stability histogram per coordinate (bins of width tau), the
//                              clamp to centre +- r, the mean, the Gaussian.
//   dp_pca(X)                  Alg. 3 with T = 10 (the bench's): per step, Alg. 4 on the products of one
//                              half of the batch, floored at lambda_min = 1, Alg. 5 on the other's,
//                              w / ||w||.
//   k_dp_ojas(X, k)            deflation: per component j, Private Oja on block j of n // k samples
//                              projected off the components found, then w projected off them and
//                              normalised.
//   k_dp_pca(X, k)             the same with Alg. 3 (c1 = 1, the bench's inverse-time step) per component.
// The steps, batches, subsets and histograms, which set the cost, are dpbounds' own at every bench size; the
// histograms are kNumpyMechanisms' stable_mode. Alg. 4's eigenvalue is LAPACK's on the smaller Gram matrix,
// numpy's fastest (dpbounds runs Lanczos on the differences).
constexpr const char* kNumpyDpPcaLoops = R"(
def minibatch_private_oja(X, eps=0.8, delta=None, lam1=5.0, gap=4.0, zeta=0.01):
    n, d = X.shape; delta = delta or 1.0 / n
    T = int(np.ceil(np.log(n) ** 2)); B = n // T
    alpha = T * np.sqrt(2 * np.log(1.25 * T / delta)) / eps
    beta = lam1 * np.sqrt(d) * (4 * np.sqrt(2.0) * np.log(2 * n * d / zeta) + 1)
    w = rng.standard_normal(d); w /= np.linalg.norm(w)
    for t in range(1, T + 1):
        XB = X[(t - 1) * B:t * B]
        G = XB * (XB @ w)[:, None]
        G *= np.minimum(1.0, beta / np.linalg.norm(G, axis=1))[:, None]
        eta = (1.0 / gap) / (1 + t)
        w = w + eta * G.mean(axis=0) + (2 * eta * beta * alpha / B) * rng.standard_normal(d)
        w /= np.linalg.norm(w)
    return w
def private_top_eigenvalue(G, eps=0.8, delta=None, zeta=0.01):
    m, d = G.shape; delta = delta or 1.0 / m
    k = int(np.ceil(4 * np.log(1 / (delta * zeta)) / eps)) + 2; b = m // (2 * k)
    if b < 1: raise ValueError("Alg. 4 needs 2k = %d vectors, got %d" % (2 * k, m))
    D = (G[1:2 * k * b:2] - G[0:2 * k * b:2]).reshape(k, b, d)
    S = D @ D.transpose(0, 2, 1) if b <= d else D.transpose(0, 2, 1) @ D
    lam = np.maximum(np.linalg.eigvalsh(S)[:, -1], 0.0) / b
    bins = np.floor(4 * np.log2(np.where(lam > 0, lam, 1.0)))
    bins[lam == 0] = -np.inf
    top = stable_mode(bins, eps, delta)
    if top is None: return None
    return 0.0 if top == -np.inf else 2 ** (top / 4) / 2
def private_mean(G, lam=5.0, eps=0.8, delta=None, zeta=0.01, K=4.0):
    B, d = G.shape; delta = delta or 1.0 / B
    tau = 2 ** 0.25 * K * np.sqrt(lam) * np.log(25)
    r = 3 * K * np.sqrt(lam) * np.log(B * d / zeta)
    e, dl = eps / (4 * np.sqrt(2 * d * np.log(4 / delta))), delta / (4 * d)
    bins = np.ceil(G / tau) - 1
    centre = np.zeros(d)
    for j in range(d):
        mode = stable_mode(bins[:, j], e, dl)
        if mode is not None: centre[j] = mode * tau
    mu = np.clip(G, centre - r, centre + r).mean(axis=0)
    sigma = 12 * K * np.sqrt(lam) * np.log(B * d / zeta) * np.sqrt(2 * d * np.log(2.5 / delta)) / (eps * B)
    return mu + sigma * rng.standard_normal(d)
def dp_pca(X, T=10, eps=0.8, delta=None, zeta=0.01, lam_min=1.0, c1=0.25, c2=1.0, K=4.0):
    n, d = X.shape; delta = delta or 1.0 / n
    B = n // T; h = B // 2
    w = rng.standard_normal(d); w /= np.linalg.norm(w)
    for t in range(1, T + 1):
        X1, X2 = X[(t - 1) * B:(t - 1) * B + h], X[(t - 1) * B + h:(t - 1) * B + 2 * h]
        lam = private_top_eigenvalue(X1 * (X1 @ w)[:, None], eps / 2, delta / 2, zeta / (2 * T))
        lam = max(lam or 0.0, lam_min)
        g = private_mean(X2 * (X2 @ w)[:, None], 2 * lam, eps / 2, delta / 2, zeta / (2 * T), K)
        w = w + (c1 / (c2 + t)) * g
        w /= np.linalg.norm(w)
    return w
def k_dp_ojas(X, k=1):
    n, d = X.shape; m = n // k
    U = np.zeros((d, 0))
    for j in range(k):
        Xj = X[j * m:(j + 1) * m]
        if j: Xj = Xj - (Xj @ U) @ U.T
        w = private_oja(Xj)
        w -= U @ (U.T @ w)
        U = np.column_stack([U, w / np.linalg.norm(w)])
    return U
def k_dp_pca(X, k=1, T=10, eps=0.8, c1=1.0):
    n, d = X.shape; m = n // k
    U = np.zeros((d, 0))
    for j in range(k):
        Xj = X[j * m:(j + 1) * m]
        if j: Xj = Xj - (Xj @ U) @ U.T
        w = dp_pca(Xj, T, eps, 1.0 / n, 0.01, 1.0, c1, 1.0, 1.0)
        w -= U @ (U.T @ w)
        U = np.column_stack([U, w / np.linalg.norm(w)])
    return U
)";

}  // namespace dpb::bench
