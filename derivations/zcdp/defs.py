"""Bun-Steinke: definitions and cited results (listed, not audited; their content is exercised by the claims that use them)."""
from cbdp_sym import Claim

SEED = "004_f41028c8afd8f9e7.txt"


def _def(cid, label, statement, where, notes=""):
    return Claim(id=cid, paper="zcdp", label=label, kind="definition", statement=statement, where=where, seed=SEED, notes=notes)


D11 = _def("ZCDP-D1.1", r"Definition 1.1: $(\xi, \rho)$-zCDP",
           r"D_\alpha(M(x)\|M(x'))\le\xi+\rho\alpha\quad\forall\alpha\in(1,\infty),\ x,x'\ \text{neighbouring}", "Sec. 1.1, Def. 1.1")
D12 = _def("ZCDP-D1.2", "Definition 1.2: the privacy loss random variable",
           r"Z=\mathrm{PrivLoss}(Y\|Y')\sim f(Y),\ f(y)=\log\frac{\mathbb P[Y=y]}{\mathbb P[Y'=y]}", "Sec. 1.1, Def. 1.2, footnote 5")
D15 = _def("ZCDP-D1.5", "Definition 1.5: sensitivity", r"|q(x)-q(x')|\le\Delta\ \text{for neighbouring }x,x'", "Sec. 1.1, Def. 1.5")
D112 = _def("ZCDP-D1.12", r"Definitions 1.12 and 8.1: $\delta$-approximate $(\xi, \rho)$-zCDP",
            r"\exists E,E':\ \mathbb P[E],\mathbb P[E']\ge1-\delta,\ D_\alpha(M(x)|_E\|M(x')|_{E'})\le\xi+\rho\alpha\ \text{(both orders)}",
            "Sec. 1.3, Def. 1.12; Sec. 8, Def. 8.1",
            notes=r"$\delta = 0$ gives zCDP; the statement that $\delta$-approximate $(\epsilon, 0)$-zCDP is equivalent to "
                  r"$(\epsilon, \delta)$-DP is exercised by ZCDP-C8.7 and ZCDP-L8.8-RHO0.")
D31 = _def("ZCDP-D3.1", r"Definition 3.1: $(\epsilon, \delta)$-differential privacy",
           r"\mathbb P[M(x)\in S]\le e^\epsilon\mathbb P[M(x')\in S]+\delta", "Sec. 3, Def. 3.1")
D41 = _def("ZCDP-D4.1", r"Definition 4.1: $(\mu, \tau)$-mean-concentrated DP [DR16]",
           r"\mathbb E[Z]\le\mu,\ \mathbb E[e^{\lambda(Z-\mathbb E[Z])}]\le e^{\lambda^2\tau^2/2}\ \forall\lambda\in\mathbb R", "Sec. 4, Def. 4.1")
D51 = _def("ZCDP-D5.1", "Definition 5.1: zCDP for groups of size $k$",
           r"D_\alpha(M(x)\|M(x'))\le\xi+\rho\alpha\ \text{for }x,x'\text{ differing in at most }k\text{ entries}", "Sec. 5, Def. 5.1")
D84 = _def("ZCDP-D8.4", r"Definition 8.4: $m$-bounded $(\xi, \rho)$-zCDP",
           r"D_\alpha(M(x)\|M(x'))\le\xi+\rho\alpha\quad\forall\alpha\in(1,m)", "Sec. 8, Def. 8.4",
           notes=r"The text's remark: the proof of Prop. 5.3 needs $D_{k\alpha}$, so the order inflation $\alpha \mapsto "
                 r"k\alpha$ is what $m$-bounded zCDP cannot supply for $k \gg m$ (ZCDP-P5.3 derives the orders).")
L86 = Claim(id="ZCDP-L8.6", paper="zcdp", label=r"Lemma 8.6 [KOV15, MV16]: $\tilde M$ is complete for $(\epsilon, \delta)$-DP",
            kind="cited", statement=r"\exists T:\ T(\tilde M_{\varepsilon,\delta}(b))\sim M(x_b)", where="Sec. 8, Lemma 8.6",
            seed=SEED)
S11D = Claim(id="ZCDP-S1.1d", paper="zcdp", label="Footnote 6: equivalent characterisations of subgaussian variables [Riv12]",
             kind="cited", statement=r"\text{(i)-(iv) equivalent up to constants in }O(\cdot),\Omega(\cdot)", where="Footnote 6", seed=SEED)
