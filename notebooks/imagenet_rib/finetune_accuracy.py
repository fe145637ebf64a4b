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
# The miniature ImageNet-RIB run (our own fine-tuning of small models on miniature datasets) is added
# by the benchmark notebooks.
