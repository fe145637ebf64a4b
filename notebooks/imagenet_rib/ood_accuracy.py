# %% [markdown]
# # imagenet_rib — per-dataset accuracy after fine-tuning (Table 30) and per corruption (Table 31)
#
# **Paper.** For the main model, ViT-B/16 pretrained on ImageNet-1K with AugReg, Table 30 prints the
# accuracy on ImageNet-1K and every dataset of D after fine-tuning with each method on each D_FT, and
# Table 31 the ImageNet-C accuracy per corruption (averaged over the five severities). These are the
# only per-dataset accuracies after fine-tuning that the text prints: every RI of Table 2 (Eq. 1),
# the backward transfers of Table 18's first column and the ImageNet-C column itself are derived from
# them. The `artefact` parameter picks the table.

# %% tags=["parameters"]
output_dir: str = "build/tiny/figures/imagenet_rib"
artefact: str = "table30"
benchmark_params: str = "params/tiny/imagenet_rib/benchmark.yaml"
results_dir: str = "build/tiny/results"

# %%
import matplotlib.pyplot as plt
import pandas as pd
from IPython.display import Markdown, display

from lib.imagenet_rib.figures import QUESTIONS, audit_rows, audit_summary, draw, verdict_markdown
from lib.imagenet_rib.tables import backward_transfer_table30, load_table, pretrained_baseline, table31_corruption_means
from lib.plotting import save_figure, set_style

set_style()
pd.set_option("display.width", 200)
pd.set_option("display.max_columns", 20)
display(Markdown(f"**Question.** {QUESTIONS[artefact]}"))

# %% [markdown]
# ## 1. The paper's numbers
# Each cell shows the printed accuracy; its colour is the change from the pretrained model
# (blue = gain, red = loss). A blank cell is the fine-tuning set itself (printed as a dash).

# %%
fig, data = draw(artefact)
written = save_figure(fig, data, output_dir, artefact)
plt.show()

# %% [markdown]
# ## 2. Re-derivation
# - **Table 30:** the pretrained row against Table 17 (the paper prints the same model's accuracies
#   twice), and backward transfer (Table 18) = mean ImageNet-1K change over the eight D_FT.
# - **Table 31:** the `Avg` column against the mean of the 15 corruptions (printed as integers, so the
#   mean carries ±0.5), and against Table 30's ImageNet-C column.

# %%
if artefact == "table30":
    printed_row = load_table("table30").query("method == 'Pretrained'").set_index("eval_dataset")["value"]
    display(pd.DataFrame({"Table 30 Pretrained row": printed_row, "Table 17": pd.Series(pretrained_baseline("table17"))}))
    display(backward_transfer_table30(load_table("table30"), pretrained_baseline("table17")).round(3))
else:
    means = table31_corruption_means(load_table("table31"))
    means["mean - printed"] = (means["mean"] - means["printed"].astype(float)).round(3)
    display(means.round(3))

# %% [markdown]
# ## 3. Audit rows

# %%
rows = audit_rows(artefact)
print(audit_summary(rows))
rows[rows["status"] != "ok"] if (rows["status"] != "ok").any() else rows.head(10).round(3)

# %% [markdown]
# ## 4. Verdict

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
