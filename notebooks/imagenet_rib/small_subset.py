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
# The miniature ImageNet-RIB run (our own few-shot fine-tuning curves) is added by the benchmark
# notebooks.
