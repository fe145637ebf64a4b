# %% [markdown]
# # imagenet_rib — Table 17: every pretrained model before fine-tuning
#
# **Question.** How accurate is every pretrained model of the benchmark (ViT-B/16, ViT-B/32, ViT-S,
# ViT-L and ResNets, with their pretraining sets), on ImageNet-1K and on each dataset of D, before
# fine-tuning? Every RI of the paper subtracts these accuracies, and the claims that larger
# pretraining means more robustness before fine-tuning rest on them.
#
# **Caption.** "The average accuracy of various pretrained models on ImageNet-1K validation set and
# OOD datasets."
#
# Table 17 prints no mean over D; it is added below (the pretrained bar of Figs. 4 and 8).

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
# Accuracy in %, as printed; the last column is the mean over D, computed here.

# %%
fig, data = draw("table17")
save_figure(fig, data, output_dir, "table17")
plt.show()
values, _ = accuracy_matrix("table17")
values

# %% [markdown]
# ## 2. Re-derivation
# The mean over D of every row (not printed).

# %%
averages = average_ood(load_table("table17"))
averages[["architecture", "pretraining", "method", "finetune_dataset", "n", "mean"]].round(3)

# %% [markdown]
# ## 3. Audit rows
# Table 17's own audit row is a count: Table 18 lists a ViT-B/32 IN-1K + AugReg model that Table 17
# lacks. Its cells are checked from the other side, in the audit rows of Tables 1, 6 and 30, which
# repeat them.

# %%
rows = audit_rows("table17")
print(audit_summary(rows))
rows[rows["status"] != "ok"].round(3) if (rows["status"] != "ok").any() else rows.head(12).round(3)

# %% [markdown]
# ## 4. Verdict

# %%
display(Markdown(verdict_markdown("table17")))

# %% [markdown]
# ## Our run
# Our miniature run has one tiny ViT pretrained under two regimes, not seventeen pretrained models, so
# no table of ours stands beside Table 17. The pretrained accuracies of our `augmented` regime
# on every domain are the first row of our panel in the notebook of Table 30 (`table30_ours`), and the
# mean before fine-tuning of both regimes is the blue bar of our run in Figure 4.
