"""Independent reference solvers for the MVA tests (exact rational arithmetic, naive floats)."""

from fractions import Fraction


def textbook_ld_mva(
    demands: list[Fraction], servers: list[int], kinds: list[str], n_max: int, think: Fraction
) -> list[tuple[Fraction, list[Fraction], list[Fraction]]]:
    """Jain Box 36.1 in exact rationals: (X, queue lengths, P(busy)) for n = 1..n_max.

    kinds: "delay", "queue" or "multi". Exact arithmetic cannot cancel catastrophically, so
    this is the ground truth the float solver is checked against.
    """
    k = len(demands)
    queue = [Fraction(0)] * k
    probs: list[list[Fraction]] = [[Fraction(1)] for _ in range(k)]
    out = []
    for n in range(1, n_max + 1):
        resid = []
        for i in range(k):
            if kinds[i] == "delay":
                resid.append(demands[i])
            elif kinds[i] == "queue":
                resid.append(demands[i] * (1 + queue[i]))
            else:
                m = servers[i]
                resid.append(
                    sum(
                        (demands[i] * j / min(j, m) * probs[i][j - 1] for j in range(1, n + 1)),
                        Fraction(0),
                    )
                )
        x = n / (think + sum(resid, Fraction(0)))
        queue = [x * r for r in resid]
        busy = []
        for i in range(k):
            if kinds[i] == "multi":
                m = servers[i]
                new = [Fraction(0)] + [
                    x * demands[i] / min(j, m) * probs[i][j - 1] for j in range(1, n + 1)
                ]
                new[0] = 1 - sum(new[1:], Fraction(0))
                probs[i] = new
                busy.append(1 - new[0])
            else:
                busy.append(x * demands[i])
        out.append((x, queue, busy))
    return out


def naive_float_p0(demand: float, servers: int, think: float, n_max: int) -> list[float]:
    """Box 36.1 in doubles for delay + one m-server station: p(0|n) for n = 1..n_max."""
    probs = [1.0]
    p0s = []
    for n in range(1, n_max + 1):
        resid = sum(demand * j / min(j, servers) * probs[j - 1] for j in range(1, n + 1))
        x = n / (think + resid)
        new = [0.0] + [x * demand / min(j, servers) * probs[j - 1] for j in range(1, n + 1)]
        new[0] = 1.0 - sum(new[1:])
        probs = new
        p0s.append(new[0])
    return p0s
