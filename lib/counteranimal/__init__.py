"""counteranimal: "Do CLIPs always generalize better than ImageNet models?" (CounterAnimal).

Modules: `published` (the printed tables as tidy frames), `classwise` (Tables 15–16: class means and
the group sizes the percentages imply), `effective_robustness` (counter against common accuracy per
family, linear and logit fits, residuals with bootstrap intervals), `figures` (the tables and figures
redrawn from the printed numbers), `audit` and `claims` (the claims ledger). No torch is imported here.
"""

from .audit import audits

__all__ = ["audits"]
