# %% [markdown]
# # imagenet_rib — Figure 2: LAION-2B vs ImageNet-21K ViT-B/16 before and after fine-tuning on ImageNet-R
#
# **Paper.** Sec. 1: "the ViT-B/16 CLIP pretrained on LAION-2B suffers from more severe catastrophic
# forgetting on OOD datasets after fine-tuning on ImageNet-R compared to the same model pretrained on
# ImageNet-21K with AugReg, despite their initially similar performance (Figure 2). Conversely, the
# ImageNet-21K pretrained model exhibits improved performance on ImageNet-Sketch." Fig. 2 draws the
# OOD accuracy per dataset before and after fine-tuning. (The caption says "IN-21K", the text
# "ImageNet-21K with AugReg"; both models are drawn.)
#
# **What is printed.** The bars before fine-tuning are Table 17's rows. The bars after fine-tuning on
# ImageNet-R are in the supplementary Tables S3, S5 and S6, not in the text; but their mean over
# D ∖ {ImageNet-R} is the pretrained mean plus the RI after fine-tuning on ImageNet-R (Eq. 1), which
# Table 27 (LAION-2B) and Table 24 (IN-21K) print. The IN-21K + AugReg RI is in Table 25, whose body
# is not in the text.

# %% tags=["parameters"]
output_dir: str = "figures/imagenet_rib"

# %%
import matplotlib.pyplot as plt
import pandas as pd
from IPython.display import Markdown, display

from lib.imagenet_rib.figures import QUESTIONS, draw, verdict_markdown
from lib.plotting import save_figure, set_style

set_style()
pd.set_option("display.width", 200)
display(Markdown(f"**Question.** {QUESTIONS['figure02']}"))

# %% [markdown]
# ## 1. The figure, from what is printed
# Solid bars: accuracy before fine-tuning (Table 17). Hatched bars: the mean after fine-tuning on
# ImageNet-R (before + RI), the only "after" quantity the text gives.

# %%
fig, data = draw("figure02")
written = save_figure(fig, data, output_dir, "figure02")
plt.show()
data.pivot_table(index="dataset", columns=["pretraining", "stage"], values="accuracy", sort=False).round(2)

# %% [markdown]
# ## 2. Verdict
# The claims this figure illustrates, assessed from the printed numbers (audit rows of the tables they
# use are in the tables' notebooks):

# %%
display(Markdown(verdict_markdown("figure02", extra=("table24", "table27"))))

# %% [markdown]
# ## Our run
# Figure 2 has no run of its own: its two pre-training sets (LAION-2B, IN-21K) have no stand-ins in our
# miniature. The miniature ImageNet-RIB run's OOD accuracy before and after fine-tuning, per method, is drawn in
# the notebook of Figure 8 (`figure08`), and its per-dataset accuracies after fine-tuning in that of Table 30.
