#pragma once
// The Oja family as a researcher would write it in numpy: one Python loop step per sample, each step a few
// numpy calls. `bench_samplers` (Private Oja at issue 23's size) and `bench_algorithms` (the family at its
// standard sizes) time these same definitions beside dpbounds; run_numpy_script's prelude comes first.

namespace dpb::bench {

// Python: functions of the data X (n x d, one sample per row), each returning its estimate.
//   oja(X)                  liu2022 Alg. 1, Oja: w += eta x (x^T w), then w / ||w||.
//   private_oja(X)          liu2022 Alg. 2, Private Oja: the samples shuffled, the step clipped to norm
//                           beta, plus Gaussian noise, then w / ||w||.
//   shifted_oja(X, V, lam)  dugler2026 Alg. 7 on A_i = V diag(lam) V^T + x x^T (the `dugler_shifted`
//                           model, kept factored: C Q costs 4 d k^2, as in dpbounds), Q + eta A_i Q, then
//                           its QR.
// The step sizes and beta are placeholders of the right shape: the time does not depend on their values.
constexpr const char* kNumpyOjaLoops = R"(
def oja(X):
    w = rng.standard_normal(X.shape[1]); w /= np.linalg.norm(w)
    for t, x in enumerate(X, 1):
        w = w + (1.0 / (t + 10)) * x * (x @ w)
        w /= np.linalg.norm(w)
    return w
def private_oja(X):
    n, d = X.shape
    w = rng.standard_normal(d); w /= np.linalg.norm(w)
    beta, alpha = 10.0, 1.0
    for t, i in enumerate(rng.permutation(n)):
        x = X[i]; g = x * (x @ w)
        gn = np.linalg.norm(g)
        if gn > beta: g *= beta / gn
        eta = 1.0 / (t + 10)
        w = w + eta * g + 2 * eta * beta * alpha * rng.standard_normal(d)
        w /= np.linalg.norm(w)
    return w
def shifted_oja(X, V, lam):
    Q = np.linalg.qr(rng.standard_normal(V.shape))[0]
    for t, x in enumerate(X, 1):
        AQ = V @ (lam[:, None] * (V.T @ Q)) + np.outer(x, x @ Q)
        Q = np.linalg.qr(Q + (1.0 / (t + 10)) * AQ)[0]
    return Q
)";

}  // namespace dpb::bench
