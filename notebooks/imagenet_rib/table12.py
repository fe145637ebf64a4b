# %% [markdown]
# # imagenet_rib — Table 12: ViT-B/32 CLIPs before and after fine-tuning on StanfordCars
#
# **Question.** Does fine-tuning on a dataset with labels of its own, StanfordCars (car models, none
# of ImageNet's classes), also collapse the OOD accuracy of zero-shot ViT-B/32 CLIPs, and does the
# smallest pretraining set (LAION-100M) again hold up best?
#
# **Caption.** "Average accuracy on ImageNet-1K validation set and each OOD dataset using ViT-B/32
# CLIP with zero-shot classifier before and after fine-tuning on the StanfordCars Dataset."
#
# Table 12 prints, for each CLIP, the accuracy on ImageNet-1K and on every OOD dataset before and
# after fine-tuning, with the average over the OOD datasets.

# %% tags=["parameters"]
output_dir: str = "figures/imagenet_rib"

# %%
import matplotlib.pyplot as plt
import pandas as pd
from IPython.display import Markdown, display

from lib.imagenet_rib.figures import accuracy_matrix, audit_rows, audit_summary, draw, verdict_markdown
from lib.imagenet_rib.tables import average_ood, load_table
from lib.plotting import save_figure, set_style

set_style()
pd.set_option("display.width", 200)
pd.set_option("display.max_columns", 20)

# %% [markdown]
# ## 1. The paper's numbers
# Accuracy in % before and after fine-tuning on StanfordCars, as printed.

# %%
fig, data = draw("table12")
save_figure(fig, data, output_dir, "table12")
plt.show()
values, _ = accuracy_matrix("table12")
values

# %% [markdown]
# ## 2. Re-derivation
# The mean over the eight OOD datasets of every row beside the printed average.

# %%
averages = average_ood(load_table("table12"))
averages[["architecture", "pretraining", "method", "finetune_dataset", "n", "mean", "printed"]].round(3)

# %% [markdown]
# ## 3. Audit rows
# The pretrained rows against Table 9 (the same models before fine-tuning) and the printed averages.
# Two ImageNet-1K cells are swapped between the tables (LAION-400M and OpenAI).

# %%
rows = audit_rows("table12")
print(audit_summary(rows))
rows[rows["status"] != "ok"].round(3) if (rows["status"] != "ok").any() else rows.head(12).round(3)

# %% [markdown]
# ## 4. Verdict

# %%
display(Markdown(verdict_markdown("table12")))

# %% [markdown]
# ## Our run
# StanfordCars has no analogue in our miniature run: every domain of the suite is made from the digits
# and shares their ten labels, so there is no fine-tuning set with classes of its own (the tier's
# `experiments.yaml` says so), and no set of CLIPs pretrained on data of different sizes.
