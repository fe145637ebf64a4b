# %% [markdown]
# # imagenet_rib — Figure 12: fine-tuning on small subsets of each fine-tuning set
#
# **Question.** Does fine-tuning on small subsets of each fine-tuning set hurt classification models
# and zero-shot CLIP models alike? App. D fine-tunes ViT-B/16 IN-1K + AugReg, IN-21K + AugReg, OpenAI
# and LAION-2B (as classifiers and as zero-shot CLIPs) on a few images per class and plots the
# accuracy on the fine-tuning sets and on the OOD datasets against the subset size.
#
# **Caption.** "Fine-tuning on a small dataset leads to severe accuracy degradation in both in- and
# out-of-distribution."
#
# Only the dashed lines are printed: the pretrained models' mean accuracy over D (Table 17 for the
# classifiers, Table 9 for the zero-shot CLIPs). The curves are not.

# %% tags=["parameters"]
output_dir: str = "figures/imagenet_rib"
experiments_params: str = "params/mini/imagenet_rib/experiments.yaml"
results_dir: str = "results"

# %%
import matplotlib.pyplot as plt
import pandas as pd
from IPython.display import Markdown, display

from lib.imagenet_rib.figures import draw, verdict_markdown
from lib.plotting import save_figure, set_style

set_style()
pd.set_option("display.width", 200)
pd.set_option("display.max_columns", 20)

# %% [markdown]
# ## 1. The dashed reference lines

# %%
fig, data = draw("figure12")
save_figure(fig, data, output_dir, "figure12")
plt.show()
data.round(2)

# %% [markdown]
# ## 2. Verdict
# The claim that rests on the curves is `not_checkable` from the text; the audit counts below are
# those of Tables 9 and 17, which the dashed lines come from.

# %%
display(Markdown(verdict_markdown("figure12", extra=("table09", "table17"))))

# %% [markdown]
# ## Our run
# Experiment `small_subsets` of the file the `experiments_params` parameter names: vanilla FT of each
# regime's model (`clean`, `augmented` and the tiny zero-shot `clip`) on k images per class of each
# fine-tuning domain, for each k of its sweep (at `mini` the suite's first two shifted digit domains, the
# tier's budget; every domain at `tiny` and `full`). The panel shows the average accuracy on the fine-tuning
# sets and the average OOD accuracy (each model on the other domains of the suite) against k, per
# regime; the dashed lines are the pretrained models. The line below it sets the paper's claim beside
# what our run shows.
#
# The paper prints none of Fig. 12's curves (only the dashed pretrained levels, from Tables 17 and
# 9, see section 1), so there is no paper panel to set beside ours: the figure is our run alone, and
# its title says so. It is drawn on the redraw's 0-100 % accuracy axes (x: images per class, log
# scale, our sweep's k), so a drop of ours looks as large as the same drop of the paper's. What
# differs: the lines are our regimes (our `clip` is a tiny CLIP pretrained on small data, unlike the
# paper's OpenAI and LAION-2B), and our k stop at the sweep's largest value.
#
# At the full tier the experiment runs on the paper's models and data (`python -m lib experiment
# --tier full --name <experiment>`, GPU, or `make figures TIER=full`, which computes
# the runs first); this notebook draws them once they are all in the store, and otherwise says how many are.

# %%
from lib.imagenet_rib.curves import show_on_paper_axes

show_on_paper_axes("figure12", experiments_params, results_dir, output_dir)
