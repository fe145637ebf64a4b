"""ssl_protocols: "A closer look at benchmarking self-supervised pre-training with image classification".

Modules: `accuracies` (Tables S.2/S.3 as tidy frames), `figure02` (the in-domain protocol
correlations and which reading of the paper reproduces its quoted numbers), `audit`.
"""

from .audit import audits

__all__ = ["audits"]
