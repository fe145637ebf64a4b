# %% [markdown]
# # imagenet_rib — one number per method and model (Tables 3, 5, 7, 8, 10, 11, 14, 15, 16, 18)
#
# **Paper.** Most of the paper's summary tables print one number per (fine-tuning method, pretrained
# model): the mRI (Table 3: models with an ImageNet-1K classifier; Tables 5 and 8: CLIP/SigLIP models
# with a zero-shot head; Table 10: epochs picked on a validation split; Tables 14–16: ablations), the
# mean effective-robustness improvement (Table 11), the Pearson correlation of ImageNet-1K accuracy with
# the dataset distance OTDD (Table 7) and the backward transfer on ImageNet-1K (Table 18). This notebook
# serves them all through the `artefact` parameter: the table as printed, what of it can be re-derived
# from other printed numbers, and the verdict.

# %% tags=["parameters"]
output_dir: str = "build/tiny/figures/imagenet_rib"
artefact: str = "table03"
benchmark_params: str = "params/tiny/imagenet_rib/benchmark.yaml"
results_dir: str = "build/tiny/results"
experiments_params: str = "params/tiny/imagenet_rib/experiments.yaml"

# %%
import matplotlib.pyplot as plt
import pandas as pd
from IPython.display import Markdown, display

from lib.imagenet_rib.figures import QUESTIONS, audit_rows, audit_summary, draw, method_matrix, verdict_markdown
from lib.plotting import save_figure, set_style

set_style()
pd.set_option("display.width", 200)
pd.set_option("display.max_columns", 20)
display(Markdown(f"**Question.** {QUESTIONS[artefact]}"))

# %% [markdown]
# ## 1. The paper's numbers
# Rows are methods (or settings), columns models; each cell shows the printed text (with Table 10's
# parenthesised differences, Table 15's standard errors and Table 16's best α under it). Red is
# negative, blue positive.

# %%
fig, data = draw(artefact)
written = save_figure(fig, data, output_dir, artefact)
plt.show()
values, _ = method_matrix(artefact)
values

# %% [markdown]
# ## 2. Re-derivation and audit rows
# What each table repeats from another (Table 3 ↔ Tables 22–28, Table 5 ↔ Table 8, Table 14's
# weight decay 0 and Table 16's α = 0.5 ↔ Table 3, Table 10's parentheses = Table 10 − Table 3) is
# checked for equality; Table 18's ViT-B/16 IN-1K + AugReg column is recomputed from Table 30. Numbers
# computed from accuracies the text does not print are `not_checkable`, with what is missing.

# %%
rows = audit_rows(artefact)
print(audit_summary(rows))
rows.round(3)

# %% [markdown]
# ## 3. Verdict

# %%
display(Markdown(verdict_markdown(artefact)))

# %% [markdown]
# ## Our run
# The miniature ImageNet-RIB (`lib.imagenet_rib.benchmark`): a small ViT "pretrained" on the digits
# under two regimes (`clean`, and `augmented` with noise augmentation, our analogue of a larger and
# more varied pretraining set), fine-tuned with every method on each of six shifted digit domains
# and evaluated on all of them and on the clean digits (backward transfer); RI and mRI by Eq. 1, mean
# over seeds. At `full` the same code runs the paper's models and datasets (settings: the file the
# `benchmark_params` parameter names). Where this artefact has a counterpart in our benchmark it is
# drawn below; the finding is computed from the run, whatever it shows.

# %%
from lib.imagenet_rib.ours import has_panel, our_panel, run_benchmark

if has_panel(artefact):
    settings, our_accuracies, our_table = run_benchmark(benchmark_params, results_dir)
    our_data, our_fig, finding = our_panel(artefact, settings, our_accuracies, our_table)
    save_figure(our_fig, our_data, output_dir, f"{artefact}_ours")
    print(f"{settings.source} benchmark, regimes {settings.regimes}, {len(settings.seeds)} seed(s):", finding)
else:
    print(f"{artefact}: no counterpart in the main benchmark's run.")

# %% [markdown]
# ## Our run: the appendix experiments
# Tables 8, 10, 11, 14 and 16 are appendix studies. Each is an experiment of the file the
# `experiments_params` parameter names: the same miniature benchmark with a few settings changed
# (`lib.imagenet_rib.experiments`), drawn by `lib.imagenet_rib.ours_experiments`.
# - Table 8 (`clip_zero_shot`): a tiny CLIP pretrained contrastively on the clean digits, fine-tuned
#   through its zero-shot head with the methods of App. C (FLYP added, no linear probing or LP-FT);
#   its mRI per method beside the main benchmark's regimes (experiment `main`).
# - Tables 10 and 11 (`validation_split`): a fifth of each fine-tuning set held out, longer training,
#   the best validation epoch kept (App. E). Table 10: mRI; Table 11: mean eRI (Eq. 2,
#   `lib.metrics.robustness` with its default logit-linear baseline; the paper does not say what the
#   baseline is fit on: ours fits β_j for the fine-tuning set D_i on every model fine-tuned on D_i in
#   this experiment and in `main`). Both with the difference from `main` (no split, the last epoch) and
#   the mean selected epoch (none for the post-hoc WiSE-FT and soup).
# - Table 14 (`weight_decay`): FT's mRI per weight decay and regime.
# - Table 16 (`wise_alpha`): WiSE-FT's mRI over the alpha grid, at alpha 0.5 and at the best alpha. The
#   convention is the paper's Eq. 3, W = alpha · W_pre + (1 − alpha) · W_FT: alpha weights the
#   *pretrained* model (alpha 0 is FT, dashed; alpha 1 the pretrained model, mRI 0).
# At the full tier the experiments run on the paper's models and data (`python -m lib experiment
# --tier full --name <experiment>`, GPU); the notebook does not compute them and says so.

# %%
from lib.imagenet_rib.ours_experiments import show_experiment_panel

show_experiment_panel(artefact, experiments_params, results_dir, output_dir)
