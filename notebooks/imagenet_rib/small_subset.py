# %% [markdown]
# # imagenet_rib — Figures 6 and 12: fine-tuning on a few images per class
#
# **Paper.** Fig. 6 (Sec. 4.4) fine-tunes the zero-shot LAION-2B ViT-B/16 CLIP on k images per class
# of the ImageNet-1K training set and plots ImageNet-1K and OOD accuracy against k; Fig. 12 (App. D)
# fine-tunes ViT-B/16 models (IN-1K + AugReg, IN-21K + AugReg, OpenAI and LAION-2B, as classifiers
# and as zero-shot CLIPs) on small subsets of each fine-tuning set. "The dashed line denotes the
# (average) accuracy of the pretrained model."
#
# **What is printed.** Only the dashed lines: Table 9 (zero-shot models) and Table 17 (classifiers).
# The curves are not. The `artefact` parameter picks the figure.

# %% tags=["parameters"]
output_dir: str = "build/tiny/figures/imagenet_rib"
artefact: str = "figure06"
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
# ## 1. The dashed reference lines

# %%
fig, data = draw(artefact)
written = save_figure(fig, data, output_dir, artefact)
plt.show()
data.round(2)

# %% [markdown]
# ## 2. Verdict
# The claims that rest on the curves (accuracy collapses on small subsets; classification models
# degrade less than CLIP models) are `not_checkable` from the text.

# %%
display(Markdown(verdict_markdown(artefact, extra=("table09",) if artefact == "figure06" else ("table09", "table17"))))

# %% [markdown]
# ## Our run
# Fig. 12 has a counterpart in our miniature ImageNet-RIB: experiment `small_subsets` of the file the
# `experiments_params` parameter names fine-tunes (FT) each regime's model (`clean`, `augmented` and
# the tiny zero-shot `clip`) on k images per class of each fine-tuning domain. The panel shows the
# average accuracy on the fine-tuning sets and the average OOD accuracy (each model on the other
# datasets of the suite) against k, per regime; the dashed lines are the pretrained model. Fig. 6
# (a few images of ImageNet-1K train) has no counterpart here. The finding is computed from the run.
# At the full tier the experiments run on the paper's models and data (`python -m lib experiment
# --tier full --name <experiment>`, GPU); the notebook does not compute them and says so.

# %%
from lib.imagenet_rib.ours_experiments import show_experiment_panel

show_experiment_panel(artefact, experiments_params, results_dir, output_dir)
