# %% [markdown]
# # imagenet_rib — Figure 11: ImageNet-1K accuracy after fine-tuning vs dataset distance
#
# **Paper.** App. B.2: "Using the Optimal Transport Dataset Distance (OTDD) in the ViT-B/16 feature
# space, we find that accuracy generally decreases as OTDD from ImageNet-1K increases (Figure 11).
# Pearson correlations (Table 7) confirm a negative trend for all methods except linear probing, with
# FT and Visual Prompt showing strong correlations (< −0.5)." Synthetic fine-tuning sets made from the
# ImageNet validation set (Cartoon, Drawing, ImageNet-C) are excluded.
#
# **What is printed.** The x-axis (OTDD between ImageNet-1K and each fine-tuning set, also Fig. 10's
# matrices) is not. The y-values are printed for ViT-B/16 IN-1K + AugReg only (Table 30's ImageNet-1K
# column for the five realistic fine-tuning sets), and Table 7 prints the correlations. So the figure
# is drawn with the fine-tuning sets as categories, beside Table 7's r.

# %% tags=["parameters"]
output_dir: str = "figures/imagenet_rib"
benchmark_params: str = "params/mini/imagenet_rib/benchmark.yaml"
results_dir: str = "results"
analysis: dict = {"images": 256, "exclude": []}

# %%
import matplotlib.pyplot as plt
import pandas as pd
from IPython.display import Markdown, display

from lib.imagenet_rib.figures import QUESTIONS, draw, verdict_markdown
from lib.plotting import save_figure, set_style

set_style()
pd.set_option("display.width", 200)
display(Markdown(f"**Question.** {QUESTIONS['figure11']}"))

# %% [markdown]
# ## 1. The printed part of the figure

# %%
fig, data = draw("figure11")
written = save_figure(fig, data, output_dir, "figure11")
plt.show()
data.pivot_table(index="method", columns="finetune_dataset", values="ImageNet-1K accuracy", sort=False)

# %% [markdown]
# ## 2. Verdict
# Table 7's correlations cannot be recomputed without the distances (audit rows of table07 are
# `not_checkable`). The paper's own hint at the x order (ImageNet-V2 closest to ImageNet-1K among the
# realistic sets, ObjectNet farthest; App. B.1) fits the printed y-values for FT: 78.4 after IN-V2,
# 74.4 after ObjectNet.

# %%
display(Markdown(verdict_markdown("figure11", extra=("table07",))))

# %% [markdown]
# ## Our run
# The same quantity on the tier's benchmark: the reference set's accuracy after fine-tuning on each
# fine-tuning dataset but `analysis.exclude` (first regime, mean over seeds) against that dataset's
# OTDD from the reference in the first regime's feature space, on `analysis.images` seeded images per
# dataset, with Pearson r and p per method (Table 7's statistic). Tiny and mini: the clean digits and
# the shifted domains. Full: ImageNet-1K val and ViT-B/16 IN-1K + AugReg, without Cartoon, Drawing and
# ImageNet-C as the paper; ObjectNet, never fine-tuned on here (its licence), is not a point either,
# so four datasets remain of the paper's five.
#
# The figure is drawn as the redraw above: the same colour per method (`figures.METHOD_COLOURS`) and,
# right, Pearson r per method with the same red bars below r = -0.5 as Table 7's panel; ours carry whiskers,
# the 95 % bootstrap interval over fine-tuning datasets of each method's finding below (the paper prints
# none, and with five or six points each interval is wide). Linear probing's whisker is drawn but not judged:
# App. B.2 finds the negative trend "for all methods except linear probing". What differs:
# our x axis is the OTDD itself (the paper's Fig. 11 plots against OTDD too, but the text prints none
# of its distances, so the redraw's x axis is categorical), and the points are our shifted domains.
# Our methods have one row the paper's tables lack, "EWC (L2, released code)": the plain L2 pull to
# the pretrained weights that the authors' released code runs as EWC, beside Fisher-weighted EWC (the
# method EWC) as the text describes it.

# %%
from lib.imagenet_rib.representations import our_representation_panel

our_data, our_fig, finding = our_representation_panel("figure11", benchmark_params, results_dir, analysis)
save_figure(our_fig, our_data, output_dir, "figure11_ours")
print(finding)
