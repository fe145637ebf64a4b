# %% [markdown]
# # imagenet_rib — Figure 6: fine-tuning zero-shot LAION-2B on a few images per class
#
# **Question.** How do the ImageNet-1K and OOD accuracy of the zero-shot LAION-2B ViT-B/16 CLIP change
# when it is fine-tuned on only k images per class of the ImageNet-1K training set? Sec. 4.4 says both
# fall: dataset size is a major determinant of the collapse.
#
# **Caption.** "Fine-tuning on small dataset leads to severe accuracy degradation both in- and out-of
# distribution."
#
# Only the dashed lines are printed: the accuracies of the pretrained model, Table 9's LAION-2B
# ViT-B/16 row. The curves are not.

# %% tags=["parameters"]
output_dir: str = "figures/imagenet_rib"

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
fig, data = draw("figure06")
save_figure(fig, data, output_dir, "figure06")
plt.show()
data.round(2)

# %% [markdown]
# ## 2. Verdict
# The claim that rests on the curves (accuracy collapses on small subsets) is `not_checkable` from the
# text; the audit counts below are those of Table 9, which the dashed lines come from.

# %%
display(Markdown(verdict_markdown("figure06", extra=("table09",))))

# %% [markdown]
# ## Our run
# Our miniature run has no counterpart of Fig. 6: its `small_subsets` experiment fine-tunes on k
# images per class of each shifted fine-tuning domain (Fig. 12's design, drawn in that notebook), but
# no experiment fine-tunes on a few images of the pretraining domain itself, which is what Fig. 6 does
# with ImageNet-1K.
