# %% [markdown]
# # imagenet_rib — accuracy on the fine-tuning set (Tables 19–21): does each method learn D_FT?
#
# **Paper.** App. J.3: "FT, LwF, and LP-FT can overfit to the fine-tuning dataset but WiSE-FT and
# Model Soup have worse performance ... Visual Prompt and LoRA rarely learn from a fine-tuning
# dataset." Tables 19 (ViT-B/16), 20 (ViT-B/32, ViT-S, ViT-L) and 21 (ResNets) print the accuracy
# after fine-tuning on each D_FT, measured on D_FT itself (the training data; 10 epochs, App. H.3).
# The models of each table are printed as unlabelled blocks; `lib/published/imagenet_rib/README.md`
# records how each block was read. This notebook serves the three tables through `artefact`.

# %% tags=["parameters"]
output_dir: str = "build/tiny/figures/imagenet_rib"
artefact: str = "table19"
benchmark_params: str = "params/tiny/imagenet_rib/benchmark.yaml"
results_dir: str = "build/tiny/results"

# %%
import matplotlib.pyplot as plt
import pandas as pd
from IPython.display import Markdown, display

from lib.imagenet_rib.figures import QUESTIONS, audit_rows, audit_summary, draw, verdict_markdown
from lib.imagenet_rib.tables import SUITE, load_table, model_label
from lib.plotting import save_figure, set_style

set_style()
pd.set_option("display.width", 200)
pd.set_option("display.max_columns", 20)
display(Markdown(f"**Question.** {QUESTIONS[artefact]}"))

# %% [markdown]
# ## 1. The paper's numbers
# One heatmap per model (rows: methods, columns: the fine-tuning set; last column: the method's mean
# over the eight sets, computed here).

# %%
fig, data = draw(artefact)
written = save_figure(fig, data, output_dir, artefact)
plt.show()

# %% [markdown]
# ## 2. Re-derivation
# Nothing in these tables is derived from other printed numbers. What the text says about them rests
# on two summaries: each model's mean accuracy per method, and which method is highest and lowest in
# each (model, fine-tuning set) cell.

# %%
frame = load_table(artefact)
frame["model"] = [model_label(a, p) for a, p in zip(frame["architecture"], frame["pretraining"])]
means = frame.pivot_table(index="method", columns="model", values="value", aggfunc="mean", sort=False).round(2)
display(means)
cells = frame.groupby(["model", "finetune_dataset"], sort=False)
extremes = pd.DataFrame({
    "highest": cells.apply(lambda c: " / ".join(c.loc[c["value"] == c["value"].max(), "method"]), include_groups=False),
    "lowest": cells.apply(lambda c: " / ".join(c.loc[c["value"] == c["value"].min(), "method"]), include_groups=False),
})
print("highest method per cell:", extremes["highest"].value_counts().to_dict())
print("lowest method per cell:", extremes["lowest"].value_counts().to_dict())
print(f"{len(SUITE)} fine-tuning sets x {frame['model'].nunique()} models = {len(extremes)} cells")

# %% [markdown]
# ## 3. Audit rows

# %%
rows = audit_rows(artefact)
print(audit_summary(rows) if len(rows) else "no derived numbers in this table")
rows

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
