"""Tables 5-6 on our sequences: the shift metrics (`shift_metrics`) of a tier's study sequences, over draws of their data.

The metrics depend on the images drawn, not on any training, so the replicates are draws of the data: draw `d`
builds every sequence with data seed `data_seed + d` (the study's own sequences are draw 0) and reports it as
`seed` d. Table 5 is the five synthetic sequences at the steps before the final one, Table 6 the Portraits
sequence (at `mini` its faces stand-in) at the decades before the 2000s, each in the printed table's schema, so
that the paper's drawing function and the claims ledger read ours as they read the paper's numbers.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import pandas as pd

from .faces import PORTRAITS_SEQUENCE
from .ours import TABLE_SEQUENCES, over_seeds
from .study import StudySettings
from .tables import SEQUENCE_TABLES

if TYPE_CHECKING:
    from matplotlib.figure import Figure

METRICS = ("W_X", "W_XgivenY")
PRINTED_NAMES = {code: SEQUENCE_TABLES[table] for table, code in TABLE_SEQUENCES.items()}  # CLR -> its Table 2 name


def _synthetic(metrics: pd.DataFrame, sequence: str) -> pd.DataFrame:
    """Table 5's rows of one sequence: every step but the final one, labelled by its printed name."""
    steps = metrics[metrics["step"] < metrics["step"].max()]
    long = steps.melt(id_vars="step", value_vars=list(METRICS), var_name="metric")
    return long.assign(sequence=PRINTED_NAMES[sequence], step=long["step"].astype(str))


def _decades(metrics: pd.DataFrame, sequence: str) -> pd.DataFrame:
    """Table 6's rows: every decade before the final one (the 2000s)."""
    from ..data.portraits import PORTRAITS_DECADES  # its loader imports torch: only when computing

    decades = list(PORTRAITS_DECADES)
    steps = metrics[metrics["step"] < len(decades) - 1]
    long = steps.melt(id_vars="step", value_vars=list(METRICS), var_name="metric")
    return long.assign(time_period=[decades[s] for s in long["step"]]).drop(columns="step")


# artefact -> (which of the study's sequences, their rows in the printed schema, the schema's label columns)
TABLES = {"table05": (lambda settings: list(settings.sequences), _synthetic, ["metric", "sequence", "step"]),
          "table06": (lambda settings: [PORTRAITS_SEQUENCE] if settings.portraits["architectures"] else [], _decades,
                      ["time_period", "metric"])}


def our_shift_table(artefact: str, study_params: str, draws: int) -> pd.DataFrame:
    """Table 5 or 6 on our sequences: `value` per printed cell and draw (`seed`), over `draws` draws of the data
    of the study `study_params` names (raising for a missing dataset before any compute, as the study does)."""
    from .sequence import build
    from .shift_metrics import shift_metrics

    if artefact not in TABLES:
        raise KeyError(f"{artefact!r}: the shift metrics are Tables 5 and 6; choose one of {sorted(TABLES)}")
    if draws < 1:
        raise ValueError(f"draws must be at least 1, got {draws}")
    settings = StudySettings.load(study_params)
    sequences, rows_of, labels = TABLES[artefact]
    if not sequences(settings):
        raise ValueError(f"{study_params}: the study has no sequence of {artefact} (Table 6 needs the `portraits` "
                         "block with at least one architecture)")
    frames = []
    for draw in range(draws):
        specs = replace(settings, data_seed=settings.data_seed + draw).specs()
        for sequence in sequences(settings):
            metrics = shift_metrics(build(specs[sequence]))
            frames.append(rows_of(metrics, sequence).assign(seed=draw))
    frame = pd.concat(frames, ignore_index=True)
    return frame[[*labels, "seed", "value"]]


def our_shift_panel(artefact: str, study_params: str, draws: int) -> tuple[pd.DataFrame, Figure, pd.DataFrame]:
    """`(data, figure, ledger)` of Table 5 or 6 on our sequences: the rows per draw; the mean over draws drawn by
    the function that draws the printed table (`figures.shift_table_figure`), each cell `mean ± half-width of its
    95 % t-interval over draws`; and the claims resting on the table judged on the printed numbers and on ours
    (`lib.claims.ledger`: our verdict a sign test over the draws)."""
    from ..claims import ledger, seed_run
    from ..params import tier_of
    from .claims import claims_for
    from .figures import shift_table_figure

    frame = our_shift_table(artefact, study_params, draws)
    labels = TABLES[artefact][2]
    cells = over_seeds(frame, labels)  # the draws are the seeds
    mean, half = cells[[*labels, "value"]], cells[[*labels, "spread"]].rename(columns={"spread": "value"})
    tier = tier_of(study_params)
    title = (f"ours ({tier}, {draws} draw{'s' * (draws != 1)} of the data): Table {int(artefact[5:])}'s metrics on our "
             "sequences, mean ± half-width of the 95 % t-interval over draws")
    fig = shift_table_figure(mean, artefact, title, half if draws > 1 else None)
    verdicts = ledger(claims_for(artefact), ours=seed_run({artefact: frame}, tier, kind="draws of the data"))
    return frame.assign(source="ours", tier=tier), fig, verdicts
