"""Two-player TrueSkill in closed form: the trueskill package's ``rate_1vs1`` without its factor graph.

The same numbers at a fraction of the cost (docs/benchmarks.md, "Ratings: recomputing a season").

For two players the package's factor graph has a closed form (Herbrich, Minka and Graepel,
"TrueSkill(TM): A Bayesian Skill Rating System", 2006). With the winner first (either player
first for a draw), and each variance first widened by the dynamics factor, σ² ← σ² + τ²:

    c² = 2β² + σ_w² + σ_l²      t = (μ_w − μ_l) / c      ε = draw_margin / c
    μ_w ← μ_w + σ_w² / c · v    σ_w² ← σ_w² (1 − σ_w² / c² · w)
    μ_l ← μ_l − σ_l² / c · v    σ_l² ← σ_l² (1 − σ_l² / c² · w)

For a win, with x = t − ε: v = pdf(x) / cdf(x) (or −x when cdf(x) underflows to 0) and
w = v (v + x). For a draw, with a = ε − |t| and b = −ε − |t|: v = (pdf(b) − pdf(a)) /
(cdf(a) − cdf(b)), negated when t < 0, and w = v² + (a pdf(a) − b pdf(b)) / (cdf(a) − cdf(b)).
These are the package's own ``v_win``, ``w_win``, ``v_draw`` and ``w_draw``.

``cdf`` and ``pdf`` are the package's built-in backend itself, and the draw margin is its own
``calc_draw_margin(draw_probability, 2, env)``: that backend's erfc is a Chebyshev fit with a
fractional error up to 1.2e-7, so the exact ``math.erfc`` would drift from the package by
about 1e-7. Where the package gives up, so does this module, with ``FloatingPointError``: a
win whose w falls outside (0, 1), which happens once |x| passes about 38 (the winner some 38 c
ahead or behind), and a draw whose cdf(a) − cdf(b) is 0.

What is left is rounding: the package passes messages in precision form (1/σ², μ/σ²) and
keeps σ between games, this module keeps σ². On ordinary ratings the two agree to about
1e-13 per update, and the gap does not grow over a season (5e-14 after 20,000 series in
tests/benchmarks/ratings_speed.py). Two corners are ill-conditioned: the package's own result
there is off its exact formula by 1e-10 to 1e-6, the two lose different digits and can differ
by more than 1e-9. They are a draw with ε below about 1e-3 (a draw probability under about
1e-5, or a σ above about 100 β), where cdf(a) − cdf(b) cancels, and a win against the odds by
more than about 37 c, where v + x cancels.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import TypeVar

import trueskill
import trueskill.backends

Key = TypeVar("Key", bound=Hashable)
MuSigma = tuple[float, float]

WIN_A = 1
DRAW = 0
WIN_B = -1


@dataclass(frozen=True, slots=True)
class TrueSkillParameters:
    """One season's TrueSkill constants; the defaults are the trueskill package's."""

    mu: float = trueskill.MU
    sigma: float = trueskill.SIGMA
    beta: float = trueskill.BETA
    tau: float = trueskill.TAU
    draw_probability: float = trueskill.DRAW_PROBABILITY

    def __post_init__(self) -> None:
        if not self.sigma > 0:
            raise ValueError(f"sigma must be positive, not {self.sigma!r}")
        if not self.beta > 0:
            raise ValueError(f"beta must be positive, not {self.beta!r}")
        if not self.tau >= 0:
            raise ValueError(f"tau must not be negative, not {self.tau!r}")
        if not 0 <= self.draw_probability < 1:
            raise ValueError(f"draw_probability must be in [0, 1), not {self.draw_probability!r}")

    def to_env(self) -> trueskill.TrueSkill:
        """Return the package's environment with these constants and its built-in backend."""
        return trueskill.TrueSkill(
            mu=self.mu,
            sigma=self.sigma,
            beta=self.beta,
            tau=self.tau,
            draw_probability=self.draw_probability,
            backend=None,
        )

    @classmethod
    def from_env(cls, env: trueskill.TrueSkill) -> TrueSkillParameters:
        """Return the constants of a package environment; only a fixed draw probability has a closed form."""
        if env.backend is not None:
            raise ValueError(f"only the built-in backend matches the closed form, not {env.backend!r}")
        if callable(env.draw_probability):
            raise ValueError("a dynamic draw probability has no closed form")
        return cls(mu=env.mu, sigma=env.sigma, beta=env.beta, tau=env.tau, draw_probability=env.draw_probability)


@functools.lru_cache(maxsize=64)
def draw_margin(params: TrueSkillParameters) -> float:
    """Return the draw margin of a two-player game, computed by the package itself."""
    return trueskill.calc_draw_margin(params.draw_probability, 2, env=params.to_env())


def _cannot_rate(index: int, key_a: object, key_b: object) -> FloatingPointError:
    return FloatingPointError(
        f"result {index} ({key_a!r} against {key_b!r}) is too unlikely to rate in double precision; "
        "the trueskill package raises FloatingPointError here too"
    )


def recompute(
    results: Iterable[tuple[Key, Key, int]],
    params: TrueSkillParameters,
    initial: dict[Key, MuSigma] | None = None,
) -> dict[Key, MuSigma]:
    """Return every rating after applying two-player results in order, as ``{key: (mu, sigma)}``.

    A result is ``(key_a, key_b, outcome)`` with outcome 1 when a won, 0 for a draw and -1 when
    b won. A key missing from ``initial`` starts at ``(params.mu, params.sigma)``. Equal to
    calling the package's ``rate_1vs1(winner, loser, drawn, env=params.to_env())`` on each
    result in turn, within 1e-9.
    """
    mus: dict[Key, float] = {}
    variances: dict[Key, float] = {}
    for key, (mu, sigma) in (initial or {}).items():
        if not sigma > 0:
            raise ValueError(f"sigma of {key!r} must be positive, not {sigma!r}")
        mus[key] = float(mu)
        variances[key] = float(sigma) * sigma

    # Everything the loop reads is a local: this loop is the season recompute's whole cost.
    mu_start = float(params.mu)
    variance_start = float(params.sigma) ** 2
    tau_squared = float(params.tau) ** 2
    two_beta_squared = 2 * float(params.beta) ** 2
    margin = draw_margin(params)
    sqrt = math.sqrt
    cdf = trueskill.backends.cdf
    pdf = trueskill.backends.pdf
    mus_get = mus.get
    variances_get = variances.get

    for index, (key_a, key_b, outcome) in enumerate(results):
        if key_a == key_b:
            raise ValueError(f"result {index}: {key_a!r} cannot play itself")
        if outcome in (WIN_A, DRAW):
            key_w, key_l = key_a, key_b
        elif outcome == WIN_B:
            key_w, key_l = key_b, key_a
        else:
            raise ValueError(f"result {index}: outcome must be 1, 0 or -1, not {outcome!r}")
        mu_w = mus_get(key_w, mu_start)
        mu_l = mus_get(key_l, mu_start)
        variance_w = variances_get(key_w, variance_start) + tau_squared
        variance_l = variances_get(key_l, variance_start) + tau_squared
        c_squared = two_beta_squared + variance_w + variance_l
        c = sqrt(c_squared)
        t = (mu_w - mu_l) / c
        epsilon = margin / c
        if outcome:
            x = t - epsilon
            denominator = cdf(x)
            v = pdf(x) / denominator if denominator else -x
            w = v * (v + x)
            if not 0 < w < 1:
                raise _cannot_rate(index, key_a, key_b)
        else:
            a = epsilon - abs(t)
            b = -epsilon - abs(t)
            denominator = cdf(a) - cdf(b)
            if not denominator:
                raise _cannot_rate(index, key_a, key_b)
            pdf_a = pdf(a)
            pdf_b = pdf(b)
            v = (pdf_b - pdf_a) / denominator
            w = v * v + (a * pdf_a - b * pdf_b) / denominator
            if t < 0:
                v = -v
        mus[key_w] = mu_w + variance_w / c * v
        mus[key_l] = mu_l - variance_l / c * v
        variances[key_w] = variance_w * (1 - variance_w / c_squared * w)
        variances[key_l] = variance_l * (1 - variance_l / c_squared * w)

    return {key: (mu, math.sqrt(variances[key])) for key, mu in mus.items()}


def rate_1vs1(winner: MuSigma, loser: MuSigma, drawn: bool, params: TrueSkillParameters) -> tuple[MuSigma, MuSigma]:
    """Return the new (winner, loser) ratings as ``(mu, sigma)`` pairs; with ``drawn`` the order is free.

    The closed form of the package's ``rate_1vs1(winner, loser, drawn, env=params.to_env())``.
    """
    ratings = recompute([(0, 1, DRAW if drawn else WIN_A)], params, initial={0: winner, 1: loser})
    return ratings[0], ratings[1]
