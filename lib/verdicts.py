"""The verdicts every claim and finding ends in, in the order they are counted and listed.

* `supported`: the claim holds (on the paper's numbers: its quantifier is met; on our run: and the
  interval or every replicate agrees).
* `partly_supported`: it holds in some of its cases (or parts), not in enough; the evidence counts them.
* `contradicted`: it fails (holds in at most a quarter of its cases, or the interval lies on the other side).
* `not_distinguishable`: our run's interval (or its replicates) is too wide to tell.
* `not_checkable`: the numbers the claim needs are not there (not printed, or not in our run).
"""

VERDICTS: tuple[str, ...] = ("supported", "partly_supported", "contradicted", "not_distinguishable", "not_checkable")
