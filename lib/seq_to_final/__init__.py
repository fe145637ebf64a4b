"""seq_to_final: "Seq-to-Final: a benchmark for tuning from sequential distributions to a final time point".

Modules: `tables` (the printed Tables 1-15 as tidy frames), `summaries` (Mean/Std rows of Tables 8-14
re-derived under each reading), `formatting` (the captions' bold/italic rules), `audit`, `claims`
(the claims ledger) and `figures` (drawings of the printed tables for the notebooks).
"""

from .audit import audits

__all__ = ["audits"]
