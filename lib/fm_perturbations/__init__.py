"""fm_perturbations: "Robustness of vision foundation models to common perturbations" (seed 002).

Modules: `metrics` (R_cs, R_ed and DivergenceRadius, Table 1), `examples` (the paper's Fig. 1 and 2
examples and hand-built sets with known answers), `properties` (Table 1's five properties checked
with our metric code), `accuracies` (Tables 2 and 3 and the quoted numbers as tidy frames),
`figures` (drawings of the tables and theory figures), `audit` and `claims` (the claims ledger).
Importing this package imports no torch.
"""

from .audit import audits

__all__ = ["audits"]
