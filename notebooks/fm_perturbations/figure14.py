# %% [markdown]
# # fm_perturbations — Figure 14: average cosine-similarity robustness R_cs per model and perturbation (Food101)
#
# **Paper.** Liu, Jiang, Hong, Gong, *Robustness of vision foundation models to common perturbations*.
#
# **Caption.** Average cosine-similarity robustness (R_cs) of Food101 testing images for different foundation models and perturbation functions (our wording: the figure is in the appendix, not in our text).
#
# **Question.** On the second dataset, does R_cs give the same picture as R_dr (Figure 13) and as R_cs on the first
# dataset (Figure 12)?
#
# **What the text says.** Sec. 4.2 cites "Figures 12, 14, and 16 (Appendix)" as the R_cs counterparts of the R_dr grids,
# and says the ViT-vs-ResNet result (ViTs more robust "across all perturbations and datasets") is "also
# observed when using cosine similarity". The text quotes no R_cs value.

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
# Here: the study's second dataset, standing in for Food101 (mini: scikit-image photo crops, see
# Figure 13), R_cs per image averaged over images — the same drawing (`metric_grid`) as Figure 4 with the
# metric R_cs.

# %%
run = run_study(study_params, results_dir)
fig, data, findings = metric_grid(run, "figure14")
save_figure(fig, data, output_dir, "figure14")
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
print(format_ledger(ledger(claims_for("figure14"))))

# %% [markdown]
# ## 4. What a toy can and cannot test
# - No printed value to compare in level; our photo crops are not food images.
# - The rank correlation across datasets is our own question, not a claim of the text.
