# %% [markdown]
# # fm_perturbations — Figure 12: average cosine-similarity robustness R_cs per model and perturbation (ImageNet)
#
# **Paper.** Liu, Jiang, Hong, Gong, *Robustness of vision foundation models to common perturbations*.
#
# **Caption.** Average cosine-similarity robustness (R_cs) of ImageNet testing images for different foundation models and perturbation functions (our wording: the figure is in the appendix, not in our text).
#
# **Question.** Does the cosine-similarity metric R_cs rank models and perturbations as R_dr does in Figure 4 — in
# particular, are ViTs again more robust than ResNets of the same pretraining?
#
# **What the text says.** Sec. 4.2 cites "Figures 12, 14, and 16 (Appendix)" as the R_cs counterparts of the R_dr
# grids (Figs. 4, 13, 15) and says of the ViT-vs-ResNet comparison: "Similar results are also observed when
# using cosine similarity"; ViT-L/14 "shows a higher average R_dr (or R_cs) than ViT-B/16 across all
# perturbations and datasets". The text quotes no R_cs value.

# %% tags=["parameters"]
output_dir: str = "figures/fm_perturbations"
study_params: str = "params/mini/fm_perturbations/study.yaml"
results_dir: str = "results"

# %%
import pandas as pd

from lib.claims import ledger
from lib.fm_perturbations.claims import claims_for, format_ledger
from lib.fm_perturbations.ours import metric_grid, run_study
from lib.plotting import save_figure, set_style

set_style()
pd.set_option("display.width", 200)

# %% [markdown]
# ## 1. Our run
# The perturbation study (`lib.fm_perturbations.study`, settings: the file `study_params` names). At
# `tiny` and `mini`: small models trained here on embedded images — a tiny CLIP trained contrastively on
# (image, prompt) pairs, a tiny ViT and a tiny ResNet trained supervised — on the scikit-learn digits
# (standing in for ImageNet) and scikit-image photo crops (standing in for Food101), 32-pixel grey images
# shown as RGB; at `full` the paper's six models and datasets. The paper prints no numbers for this
# figure (it is in the appendix, absent from our text); it is drawn from our run alone, with the shape
# the text describes stated beside ours.
# Here: the study's first dataset (mini: the digits), m equally spaced values per perturbation plus
# the clean image, R_cs per image averaged over images — the same drawing (`metric_grid`) as Figure 4 with
# the metric R_cs.

# %%
run = run_study(study_params, results_dir)
fig, data, findings = metric_grid(run, "figure12")
save_figure(fig, data, output_dir, "figure12")
data.pivot(index="model", columns="method", values="value").round(3)

# %% [markdown]
# ## 2. Findings
# Computed from the run, whatever it shows: each quantity behind a claim of the text, with a 95 %
# bootstrap interval over the test images, judged by that interval.

# %%
print(findings)

# %% [markdown]
# ## 3. Claims resting on this figure (the ledger, judged on the paper's numbers)

# %%
print(format_ledger(ledger(claims_for("figure12"))))

# %% [markdown]
# ## 4. What a toy can and cannot test
# - The text gives no value for this figure, so there is nothing to compare in level; only the shape it
#   states (ViT below ResNet, as for R_dr) is tested, on our supervised tiny ViT vs tiny ResNet.
# - Model size (the CLIP and DINO v2 size trends) is not varied in our run.
