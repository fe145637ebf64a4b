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
    print(f"{artefact}: our miniature benchmark has no counterpart of this artefact (see the manifest status).")
