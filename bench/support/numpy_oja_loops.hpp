#pragma once
// The Oja family as a researcher would write it in numpy: one Python loop step per sample, each step a
// few numpy calls, or one per batch for an algorithm that works in batches. `bench_samplers` (Private Oja
// at issue 23's size) and `bench_algorithms` (the family at its standard sizes) time these same
// definitions beside dpbounds; run_numpy_script's prelude comes first.

namespace dpb::bench {

// Python: functions of the data X (n x d, one sample per row), each returning its estimate.
//   oja(X)                  liu2022 Alg. 1, Oja: w += eta x (x^T w), then w / ||w||.
//   private_oja(X)          liu2022 Alg. 2, Private Oja: the samples shuffled, the step clipped to norm
//                           beta, plus Gaussian noise, then w / ||w||.
//   shifted_oja(X, V, lam)  dugler2026 Alg. 7 on A_i = V diag(lam) V^T + x x^T (the `dugler_shifted`
//                           model, kept factored: C Q costs 4 d k^2, as in dpbounds), Q + eta A_i Q, then
//                           its QR.
//   shifted_private_oja(X, V, lam)  dugler2026 Alg. 1 on the same A_i: T = n / B disjoint batches of
//                           B = n / log n samples; per batch the mean of the A_i Q clipped to Frobenius
//                           norm R (the batch's products at once, as a numpy user would write it),
//                           projected onto S_Q, plus the noise Q GOE_k + Pi Z, then a QR.
// The step sizes, beta, R and the noise's sd are placeholders of the right shape: the time does not depend on
// their values.
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
def shifted_private_oja(X, V, lam):
    n, (d, k) = X.shape[0], V.shape
    B = int(n / np.log(n)); R, sd = 1e3, 1e-3
    Q = np.linalg.qr(rng.standard_normal((d, k)))[0]
    for t in range(n // B):
        XB = X[t * B:(t + 1) * B]
        G = (V @ (lam[:, None] * (V.T @ Q)))[None, :, :] + XB[:, :, None] * (XB @ Q)[:, None, :]
        norms = np.sqrt((G * G).sum(axis=(1, 2)))
        D = (G * np.minimum(1.0, R / norms)[:, None, None]).mean(axis=0)
        S = Q.T @ D; D -= Q @ ((S - S.T) / 2)
        Z = sd * rng.standard_normal((d, k)); N = sd * rng.standard_normal((k, k))
        Q = np.linalg.qr(Q + (1.0 / (t + 1)) * (D + Z - Q @ (Q.T @ Z) + Q @ ((N + N.T) / np.sqrt(2))))[0]
    return Q
)";

}  // namespace dpb::bench
