# %% [markdown]
# # imagenet_rib — Figures 5 and 13: accuracy and robustness during fine-tuning
#
# **Paper.** Fig. 5 tracks, epoch by epoch of vanilla fine-tuning (ViT-B/16), the mean accuracy on the
# fine-tuning sets (left) and on the OOD datasets (right): "the ImageNet-21K model pretrained with
# AugReg learns the fine-tuning dataset faster ..., while OpenAI pretrained model shows the slowest
# learning progression. Despite this, only the LAION-2B and OpenAI models experience significant OOD
# robustness degradation" (Sec. 4.4). Fig. 13 (App. I.1) repeats this for LAION-2B with smaller
# learning rates (5e-4, 1e-4, 5e-5; 25 epochs) against the IN-21K + AugReg baseline mRI (−5.5).
#
# **What is printed.** None of the curves. Fig. 5's end points are: epoch 0 = the pretrained model
# (Table 17's mean over D, which is also its mean accuracy on the fine-tuning sets before training)
# and epoch 10 = Table 19's FT mean (fine-tuning sets) and before + FT mRI (OOD, Fig. 8's identity).
# Fig. 13 has only its reference mRIs (Table 3). The `artefact` parameter picks the figure.

# %% tags=["parameters"]
output_dir: str = "build/tiny/figures/imagenet_rib"
artefact: str = "figure05"
experiments_params: str = "params/tiny/imagenet_rib/experiments.yaml"
results_dir: str = "build/tiny/results"

# %%
import matplotlib.pyplot as plt
import pandas as pd
from IPython.display import Markdown, display

from lib.imagenet_rib.figures import QUESTIONS, draw, verdict_markdown
from lib.plotting import save_figure, set_style

set_style()
pd.set_option("display.width", 200)
display(Markdown(f"**Question.** {QUESTIONS[artefact]}"))

# %% [markdown]
# ## 1. What the printed tables allow

# %%
fig, data = draw(artefact)
written = save_figure(fig, data, output_dir, artefact)
plt.show()
data.round(2)

# %% [markdown]
# ## 2. Verdict
# The speed of learning (Fig. 5) and the small-learning-rate mRIs (Fig. 13) are not printed, so the
# claims resting only on these curves are `not_checkable`. The end points agree with the text's
# picture: after 10 epochs every ViT-B/16 model but IN-1K + SAM fits its fine-tuning sets to ≥ 94.9 %
# on average, while only OpenAI and LAION-2B lose more than 6 points of mean OOD accuracy.

# %%
display(Markdown(verdict_markdown(artefact, extra=("table03", "table19"))))

# %% [markdown]
# ## Our run
# Both figures have a counterpart in our miniature ImageNet-RIB, experiments of the file the
# `experiments_params` parameter names, FT evaluated after every epoch:
# - Fig. 5 (`training_curves`): per epoch (0 = the pretrained model), the average accuracy on the
#   fine-tuning sets and the average OOD accuracy (each model on the other datasets of the suite),
#   per regime.
# - Fig. 13 (`learning_rate`): FT for longer at several learning rates; per epoch, the accuracy on the
#   fine-tuning sets and the mRI, per learning rate and regime.
# The finding is computed from the run.
# At the full tier the experiments run on the paper's models and data (`python -m lib experiment
# --tier full --name <experiment>`, GPU); the notebook does not compute them and says so.

# %%
from lib.imagenet_rib.ours_experiments import show_experiment_panel

show_experiment_panel(artefact, experiments_params, results_dir, output_dir)
