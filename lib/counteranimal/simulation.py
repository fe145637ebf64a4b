"""The linear-CLIP simulation of Theorem 6.2 (Sec. 6, App. D): does CLIP align the spurious feature?

Data (Def. 6.1 / D.1): y uniform in {-1, 1}; a = y with probability p_spu, else -y; the latent
z = [z_inv, z_spu] with z_inv ~ N(mu_inv y, sigma_inv^2), z_spu ~ N(mu_spu a, sigma_spu^2); each
modality M (image I, text T) is x_M = D_M z + xi_M, D_M a random d_M x 2 matrix with orthonormal
columns ("dictionary"), xi_M ~ N(0, sigma_xi^2 / d_M I). The paper writes D_M mu_M(z) and never
defines mu_M: read as the identity.

Model: linear encoders g_I = W_I x, g_T = W_T x trained on the linearised CLIP loss (Eq. 1/2). The
loss depends on A = W_I^T W_T only, and equals -<A, C> + rho/2 ||A||_F^2 with C the sample
cross-covariance of images and texts, so its minimiser is A* = C / rho (with W of h < rank(C) rows:
the best rank-h approximation of C / rho, Eckart-Young). `clip_minimiser` gives it in closed form,
`numerical_minimiser` by L-BFGS on (W_I, W_T) on the literal loss (`clip_loss`): the check.

Zero-shot (Eq. 3): the prompt of class y is p_y = D_T E[z | y] ("a photo of <y>"); the class whose
prompt scores highest, x_I^T A p_y. Which expectation the paper means is a choice (`PROMPTS`):
`object` = E[z | y] on the OOD test distribution (p_spu = 1/2), i.e. [mu_inv y, 0], the latent the
proof's Eq. (5) uses; `train_mean` = E[z | y] on the training distribution, [mu_inv y, mu_spu (2 p_spu - 1) y].
Given the trained A, the OOD error of each group (a != y, a = y) is computed exactly: the score is
Gaussian given the group (`group_errors`); `zero_shot_predict` is the literal rule, for checks.

The bound (`theorem_bound`) is the paper's formula as printed: Err_{a != y} >= 1 - Phi(kappa_1) - o(1)
and Acc_{a = y} >= 1 - Phi(kappa_2) - o(1). It is the n, d -> infinity error computed with the
cross-covariance of Lemma D.3 as printed ([[1 + s_inv^2, 2 mu_spu p - 1], [., 1 + s_spu^2]]), which is
the true one only when mu_spu = 1 (the true off-diagonal is mu_spu (2p - 1), the true corner
mu_spu^2 + s_spu^2); `limit_errors` gives the n, d -> infinity error with the true covariance.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import optimize, stats

from ..findings import Finding, Findings, mean_interval
from ..params import ParamsError, SettingsFile

PROMPTS = ("object", "train_mean")
GROUPS = ("a != y", "a = y", "balanced")  # the OOD test set (p_spu = 1/2) split by a, and whole


@dataclass(frozen=True)
class Features:
    """The latent features of Def. 6.1: means and standard deviations of z_inv (given y) and z_spu (given a)."""

    mu_inv: float
    mu_spu: float
    sigma_inv: float
    sigma_spu: float

    def covariance(self, p_spu: float) -> np.ndarray:
        """E[z z^T] (z has mean 0) on data with spurious correlation `p_spu`."""
        off = self.mu_inv * self.mu_spu * (2 * p_spu - 1)
        return np.array([[self.mu_inv**2 + self.sigma_inv**2, off], [off, self.mu_spu**2 + self.sigma_spu**2]])


@dataclass(frozen=True)
class Modalities:
    """How images and texts are made from z: x_M = D_M z + xi_M, xi_M ~ N(0, noise^2 / d_M I)."""

    image_dictionary: np.ndarray  # d_I x 2, orthonormal columns
    text_dictionary: np.ndarray  # d_T x 2
    noise: float

    @classmethod
    def draw(cls, image_dim: int, text_dim: int, noise: float, rng: np.random.Generator) -> "Modalities":
        return cls(dictionary(image_dim, rng), dictionary(text_dim, rng), noise)


def dictionary(dim: int, rng: np.random.Generator) -> np.ndarray:
    """A random `dim` x 2 matrix with orthonormal columns."""
    q, r = np.linalg.qr(rng.standard_normal((dim, 2)))
    return q * np.sign(np.diag(r))


def draw_latents(n: int, p_spu: float, features: Features, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    """`(y, a, z)` of n samples (Def. 6.1): z is n x 2."""
    y = rng.choice(np.array([-1, 1]), n)
    a = np.where(rng.random(n) < p_spu, y, -y)
    z = np.column_stack([rng.normal(features.mu_inv * y, features.sigma_inv),
                         rng.normal(features.mu_spu * a, features.sigma_spu)])
    return y, a, z


def embed(z: np.ndarray, dictionary_: np.ndarray, noise: float, rng: np.random.Generator) -> np.ndarray:
    """x = D z + xi for every row of z, xi ~ N(0, noise^2 / d I)."""
    dim = dictionary_.shape[0]
    return z @ dictionary_.T + rng.normal(0.0, noise / np.sqrt(dim), (len(z), dim))


def training_pairs(n: int, dim: int, p_spu: float, features: Features, noise: float,
                   rng: np.random.Generator) -> tuple[Modalities, np.ndarray, np.ndarray]:
    """Fresh dictionaries (d_I = d_T = `dim`) and n image-text pairs made from the same latents."""
    modalities = Modalities.draw(dim, dim, noise, rng)
    _, _, z = draw_latents(n, p_spu, features, rng)
    images, texts = (embed(z, d, noise, rng) for d in (modalities.image_dictionary, modalities.text_dictionary))
    return modalities, images, texts


def cross_covariance(images: np.ndarray, texts: np.ndarray) -> np.ndarray:
    """C = 1/(n-1) sum_i (x_I^i - mean_I)(x_T^i - mean_T)^T."""
    return (images - images.mean(0)).T @ (texts - texts.mean(0)) / (len(images) - 1)


def clip_minimiser(images: np.ndarray, texts: np.ndarray, rho: float, rank: int = 0) -> np.ndarray:
    """The minimiser A* = W_I^T W_T of the linearised CLIP loss: C / rho, or its best rank-`rank`
    approximation when the encoders have `rank` < rank(C) output dimensions (0: unconstrained)."""
    target = cross_covariance(images, texts) / rho
    if rank <= 0 or rank >= min(target.shape):
        return target
    u, s, vt = np.linalg.svd(target, full_matrices=False)
    return (u[:, :rank] * s[:rank]) @ vt[:rank]


def clip_loss(product: np.ndarray, images: np.ndarray, texts: np.ndarray, rho: float) -> float:
    """The linearised CLIP loss of Eq. (1)/(2) written as printed, for A = W_I^T W_T = `product`."""
    n = len(images)
    s = images @ product @ texts.T  # s_ij = g_I(x_I^i)^T g_T(x_T^j)
    positive, off = np.diag(s), ~np.eye(n, dtype=bool)
    image_to_text = ((s - positive[:, None]) * off).sum()  # sum_i sum_{j != i} (s_ij - s_ii)
    text_to_image = ((s.T - positive[:, None]) * off).sum()  # sum_i sum_{j != i} (s_ji - s_ii)
    return float((image_to_text + text_to_image) / (2 * n * (n - 1)) + rho / 2 * np.sum(product**2))


def numerical_minimiser(images: np.ndarray, texts: np.ndarray, rho: float, rank: int, seed: int = 0) -> np.ndarray:
    """W_I^T W_T of encoders with `rank` output dimensions trained by L-BFGS on `clip_loss` (the check
    of `clip_minimiser`; small problems only: the loss is built from the n x n similarity matrix)."""
    n, (d_i, d_t) = len(images), (images.shape[1], texts.shape[1])
    weight = (np.ones((n, n)) - n * np.eye(n)) / (n * (n - 1))  # d loss / d s_ij

    def loss_and_gradient(flat: np.ndarray) -> tuple[float, np.ndarray]:
        w_i, w_t = flat[: rank * d_i].reshape(rank, d_i), flat[rank * d_i:].reshape(rank, d_t)
        product = w_i.T @ w_t
        grad = images.T @ weight @ texts + rho * product  # d loss / d A
        return clip_loss(product, images, texts, rho), np.concatenate([(w_t @ grad.T).ravel(), (w_i @ grad).ravel()])

    start = np.random.default_rng(seed).normal(0.0, 0.1, rank * (d_i + d_t))
    result = optimize.minimize(loss_and_gradient, start, jac=True, method="L-BFGS-B",
                               options={"maxiter": 20000, "gtol": 1e-12, "ftol": 1e-15})
    w_i, w_t = result.x[: rank * d_i].reshape(rank, d_i), result.x[rank * d_i:].reshape(rank, d_t)
    return w_i.T @ w_t


def prompt_latent(prompt: str, features: Features, p_spu: float) -> np.ndarray:
    """E[z | y = 1] that the prompt of class 1 encodes (`PROMPTS`); class -1's is its negative."""
    if prompt not in PROMPTS:
        raise ValueError(f"prompt must be one of {PROMPTS}, got {prompt!r}")
    spurious = features.mu_spu * (2 * p_spu - 1) if prompt == "train_mean" else 0.0
    return np.array([features.mu_inv, spurious])


def zero_shot_predict(images: np.ndarray, product: np.ndarray, text_dictionary: np.ndarray,
                      latent: np.ndarray) -> np.ndarray:
    """Eq. (3): for each image, the class y in {-1, 1} whose prompt p_y = D_T E[z | y] scores highest."""
    scores = np.column_stack([images @ product @ (text_dictionary @ (label * latent)) for label in (-1, 1)])
    return np.array([-1, 1])[scores.argmax(1)]


def group_errors(product: np.ndarray, modalities: Modalities, features: Features, latent: np.ndarray) -> dict[str, float]:
    """Exact zero-shot error of the trained model on each group of the OOD test set (`GROUPS`).

    The score margin of a test image is x_I^T v with v = A D_T E[z | 1]; given (y, a) it is Gaussian
    with mean y mu_inv u_1 + a mu_spu u_2 (u = D_I^T v) and variance sigma_inv^2 u_1^2 +
    sigma_spu^2 u_2^2 + noise^2 ||v||^2 / d_I, so the error is Phi(-y mean / sd), the same for y = +-1.
    """
    v = product @ (modalities.text_dictionary @ latent)
    u = modalities.image_dictionary.T @ v
    sd = np.sqrt(features.sigma_inv**2 * u[0] ** 2 + features.sigma_spu**2 * u[1] ** 2
                 + modalities.noise**2 * (v @ v) / len(v))
    counter = float(stats.norm.cdf(-(features.mu_inv * u[0] - features.mu_spu * u[1]) / sd))
    common = float(stats.norm.cdf(-(features.mu_inv * u[0] + features.mu_spu * u[1]) / sd))
    return {"a != y": counter, "a = y": common, "balanced": (counter + common) / 2}


def limit_errors(features: Features, p_spu: float, prompt: str) -> dict[str, float]:
    """`group_errors` of the n, d -> infinity minimiser, A -> D_I E[z z^T] D_T^T / rho (our derivation)."""
    product = features.covariance(p_spu)
    return group_errors(product, Modalities(np.eye(2), np.eye(2), 0.0), features, prompt_latent(prompt, features, p_spu))


def theorem_bound(features: Features, p_spu: float) -> dict[str, float]:
    """Theorem 6.2 as printed: `kappa_1`, `kappa_2`, the lower bound on the error where a != y
    (1 - Phi(kappa_1)) and the upper bound on the error where a = y it implies (Phi(kappa_2))."""
    s_inv2, coupling = features.sigma_inv**2, 2 * features.mu_spu * p_spu - 1
    scale = np.sqrt((1 + s_inv2) ** 2 * s_inv2 + coupling**2 * features.sigma_spu**2)
    kappa_1 = (s_inv2 + 2 - 2 * features.mu_spu * p_spu) / scale
    kappa_2 = (-2 * features.mu_spu * p_spu - s_inv2) / scale
    return {"kappa_1": float(kappa_1), "kappa_2": float(kappa_2),
            "a != y": float(1 - stats.norm.cdf(kappa_1)), "a = y": float(stats.norm.cdf(kappa_2))}


def conditions_hold(features: Features, p_spu: float, dim_ratio: float, large_correlation: float) -> bool:
    """The theorem's conditions, made finite: sigma_inv > sigma_spu, mu_spu >= (sigma_inv^2 + 2)/2 >=
    mu_inv = 1, p_spu >= `large_correlation` (for p_spu = 1 - o(1)) and d >= n (for d = Omega(n))."""
    return bool(features.sigma_inv > features.sigma_spu and features.mu_inv == 1
                and features.mu_spu >= (features.sigma_inv**2 + 2) / 2 >= features.mu_inv
                and p_spu >= large_correlation and dim_ratio >= 1)


@dataclass(frozen=True)
class SimulationSettings(SettingsFile):
    """A tier's sweep, as written in `params/<tier>/counteranimal/simulation.yaml`.

    Every (mu_spu, p_spu, n_train, seed) trains one linear CLIP on n_train pairs with
    d_I = d_T = ceil(dim_ratio n_train) and evaluates it on the OOD test set. `rank`: output dimension
    h of the encoders (0: unconstrained). `prompt`: one of `PROMPTS`. `large_correlation`: the p_spu
    from which the theorem's p_spu = 1 - o(1) is taken to hold.
    """

    seeds: list[int]
    n_train: list[int]
    dim_ratio: float
    mu_spu: list[float]
    p_spu: list[float]
    mu_inv: float
    sigma_inv: float
    sigma_spu: float
    sigma_xi: float
    rho: float
    rank: int
    prompt: str
    large_correlation: float

    def validate(self, path: Path | str) -> None:
        if self.prompt not in PROMPTS:
            raise ParamsError(f"{path}: prompt must be one of {PROMPTS}, got {self.prompt!r}")
        if not (self.seeds and self.n_train and self.mu_spu and self.p_spu):
            raise ParamsError(f"{path}: seeds, n_train, mu_spu and p_spu must not be empty")
        if min(self.n_train) < 3 or self.dim_ratio <= 0 or self.rank < 0:
            raise ParamsError(f"{path}: n_train must be >= 3, dim_ratio > 0 and rank >= 0")
        if not all(0.5 <= p <= 1 for p in self.p_spu) or not 0.5 <= self.large_correlation <= 1:
            raise ParamsError(f"{path}: p_spu and large_correlation must lie in [1/2, 1] (Def. 6.1)")
        if min(self.sigma_inv, self.sigma_spu, self.sigma_xi, self.rho, self.mu_inv, *self.mu_spu) <= 0:
            raise ParamsError(f"{path}: sigma_inv, sigma_spu, sigma_xi, rho, mu_inv and mu_spu must be positive")

    def features(self, mu_spu: float) -> Features:
        return Features(self.mu_inv, mu_spu, self.sigma_inv, self.sigma_spu)


def run_once(settings: SimulationSettings, mu_spu: float, p_spu: float, n: int, seed: int) -> dict[str, float]:
    """Train one linear CLIP on fresh data and return its exact OOD group errors."""
    rng = np.random.default_rng([seed, n, round(1000 * mu_spu), round(1000 * p_spu)])
    features, dim = settings.features(mu_spu), int(np.ceil(settings.dim_ratio * n))
    modalities, images, texts = training_pairs(n, dim, p_spu, features, settings.sigma_xi, rng)
    product = clip_minimiser(images, texts, settings.rho, settings.rank)
    return group_errors(product, modalities, features, prompt_latent(settings.prompt, features, p_spu))


def simulate(settings: SimulationSettings) -> pd.DataFrame:
    """One row per (mu_spu, p_spu, n_train, seed, group): the simulated OOD `error`, the theorem's
    `bound` on it (a lower bound where a != y, an upper bound where a = y, none for balanced), our
    n, d -> infinity `limit`, and whether the theorem's `conditions` hold."""
    rows = []
    for mu_spu, p_spu in itertools.product(settings.mu_spu, settings.p_spu):
        features = settings.features(mu_spu)
        bound, limit = theorem_bound(features, p_spu), limit_errors(features, p_spu, settings.prompt)
        holds = conditions_hold(features, p_spu, settings.dim_ratio, settings.large_correlation)
        for n, seed in itertools.product(settings.n_train, settings.seeds):
            errors = run_once(settings, mu_spu, p_spu, n, seed)
            rows += [{"mu_spu": mu_spu, "p_spu": p_spu, "n_train": n, "seed": seed, "group": group,
                      "error": errors[group], "bound": bound.get(group, np.nan), "limit": limit[group],
                      "conditions": holds} for group in GROUPS]
    return pd.DataFrame(rows)


def cell_summary(frame: pd.DataFrame, group: str = "a != y") -> pd.DataFrame:
    """Per (mu_spu, p_spu, n_train) cell of one group: the mean error over seeds with its t-interval,
    the bound, the limit, and the fraction of seeds whose error respects the bound."""
    rows = []
    keys = ["mu_spu", "p_spu", "n_train"]
    for key, cell in frame[frame["group"] == group].groupby(keys, sort=True):
        interval = mean_interval(cell["error"].to_numpy(), "seeds")
        respects = cell["error"] >= cell["bound"] if group == "a != y" else cell["error"] <= cell["bound"]
        rows.append(dict(zip(keys, key)) | {"error": cell["error"].mean(), "low": interval.low, "high": interval.high,
                                           "bound": cell["bound"].iloc[0], "limit": cell["limit"].iloc[0],
                                           "conditions": bool(cell["conditions"].iloc[0]),
                                           "seeds respecting the bound": float(respects.mean())})
    return pd.DataFrame(rows)


THEOREM = "theorem"  # the ledger claim the simulation's findings on the theorem bear on


def bound_findings(frame: pd.DataFrame) -> Findings:
    """The theorem's bound in every (mu_spu, p_spu, n_train) cell where its conditions hold: the error
    where a != y minus the bound 1 - Phi(kappa_1), a t-interval over seeds (> 0: respected)."""
    counter = frame[(frame["group"] == "a != y") & frame["conditions"]]
    out = []
    for (mu_spu, p_spu, n), cell in counter.groupby(["mu_spu", "p_spu", "n_train"], sort=True):
        margins = (cell["error"] - cell["bound"]).to_numpy()
        out.append(Finding(f"error(a != y) - bound, mu_spu = {mu_spu:g}, p_spu = {p_spu:g}, n = {n}",
                           float(margins.mean()), mean_interval(margins, "seeds"),
                           "Thm 6.2: Err(a != y) >= 1 - Phi(kappa_1) - o(1) where its conditions hold", ">", 0.0,
                           f"bound {cell['bound'].iloc[0]:.3f}", THEOREM))
    return Findings(out)


def _per_seed(frame: pd.DataFrame, mask: pd.Series, value: pd.Series) -> dict[int, np.ndarray]:
    """`value` where `mask`, averaged over cells per seed, for each n_train."""
    part = frame.assign(value=value)[mask]
    return {n: g.groupby("seed")["value"].mean().to_numpy() for n, g in part.groupby("n_train")}


def findings(frame: pd.DataFrame) -> Findings:
    """The theory claim judged on the simulation, per n_train, each a t-interval over seeds of a
    per-seed mean over the cells where the theorem's conditions hold: the error where a != y (> 1/2:
    worse than guessing, "a large error"); the error where a != y minus the error where a = y (> 0:
    the model follows the spurious feature); and the balanced OOD error at p_spu = 1/2 (conditions
    failing for want of a correlation) minus the one in the theorem's regime (< 0: the error drops)."""
    counter, common = (frame[frame["group"] == g].reset_index(drop=True) for g in ("a != y", "a = y"))
    balanced = frame[frame["group"] == "balanced"].reset_index(drop=True)
    holds = counter["conditions"]
    out = []
    for n, errors in _per_seed(counter, holds, counter["error"]).items():
        out.append(Finding(f"error(a != y) where the conditions hold, n = {n}", float(errors.mean()),
                           mean_interval(errors, "seeds"),
                           "CLIP learns the spurious feature when it correlates strongly with the captions: "
                           "large OOD error (Thm 6.2)", ">", 0.5, "Err >= 1 - Phi(kappa_1) - o(1)", THEOREM))
    for n, gaps in _per_seed(counter, holds, counter["error"] - common["error"]).items():
        out.append(Finding(f"error(a != y) - error(a = y) where the conditions hold, n = {n}", float(gaps.mean()),
                           mean_interval(gaps, "seeds"), "small error where a = y, large where a != y (Thm 6.2)",
                           ">", 0.0, "Acc(a = y) >= 1 - Phi(kappa_2) - o(1)", THEOREM))
    uncorrelated = balanced["p_spu"] == 0.5
    in_regime, without = _per_seed(balanced, holds, balanced["error"]), _per_seed(balanced, uncorrelated, balanced["error"])
    for n in sorted(in_regime.keys() & without.keys()):
        drop = without[n] - in_regime[n]
        out.append(Finding(f"balanced OOD error, p_spu = 1/2 minus the conditions' cells, n = {n}", float(drop.mean()),
                           mean_interval(drop, "seeds"), "the spurious correlation causes the error (Sec. 6)", "<", 0.0,
                           "implied, not stated"))
    return Findings(out)


def figure(frame: pd.DataFrame, settings: SimulationSettings):
    """Error where a != y (and a = y) against mu_spu, one panel per p_spu: mean over seeds with its
    t-interval per n_train, the theorem's bound, our n, d -> infinity limit, the theorem's regime shaded.
    Returns `(figure, data drawn)`."""
    import matplotlib.pyplot as plt

    from ..plotting import lines_with_bands

    counter, common = cell_summary(frame, "a != y"), cell_summary(frame, "a = y")
    data = pd.concat([counter.assign(group="a != y"), common.assign(group="a = y")], ignore_index=True)
    data["line"] = data["group"] + ", n = " + data["n_train"].astype(str)
    p_values = sorted(data["p_spu"].unique())
    fig, axes = plt.subplots(1, len(p_values), figsize=(3.6 * len(p_values), 3.4), sharey=True, squeeze=False)
    threshold = (settings.sigma_inv**2 + 2) / 2
    for ax, p in zip(axes[0], p_values):
        panel = data[data["p_spu"] == p]
        lines_with_bands(ax, panel, "mu_spu", "error", hue="line", dashed=panel["group"] == "a = y")
        reference = panel[panel["n_train"] == panel["n_train"].max()]
        for group, style in (("a != y", "k--"), ("a = y", "k-.")):
            ref = reference[reference["group"] == group]
            ax.plot(ref["mu_spu"], ref["bound"], style, lw=1, label=f"bound, {group}")
        ref = reference[reference["group"] == "a != y"]
        ax.plot(ref["mu_spu"], ref["limit"], ":", color="grey", lw=1.2, label="limit n, d -> inf, a != y")
        if p >= settings.large_correlation:
            ax.axvspan(threshold, max(settings.mu_spu), color="gold", alpha=0.15, lw=0, label="theorem's conditions")
        ax.set(title=f"p_spu = {p:g}", xlabel="mu_spu", ylabel="OOD zero-shot error", ylim=(-0.02, 1.02))
    axes[0][-1].legend(fontsize=6, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    return fig, data
