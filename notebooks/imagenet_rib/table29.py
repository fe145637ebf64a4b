# %% [markdown]
# # imagenet_rib — Table 29: where are the per-dataset accuracies of each model?
#
# **Paper.** App. J.5 / Table 29 is an index: for each pretrained model, the table holding its
# accuracy on each OOD dataset (left) and on each ImageNet-C corruption (right) after fine-tuning.
# Only the first model's two tables (Tables 30 and 31) are in the text; the others are supplementary
# tables S1–S35, which are not. Every RI and backward transfer of the other models is therefore not
# re-derivable from the text.

# %% tags=["parameters"]
output_dir: str = "figures/imagenet_rib"

# %%
import matplotlib.pyplot as plt
import pandas as pd
from IPython.display import Markdown, display

from lib.imagenet_rib.figures import QUESTIONS, audit_rows, audit_summary, draw, verdict_markdown
from lib.plotting import save_figure, set_style

set_style()
pd.set_option("display.width", 200)
pd.set_option("display.max_colwidth", 80)
display(Markdown(f"**Question.** {QUESTIONS['table29']}"))

# %% [markdown]
# ## 1. The paper's table

# %%
fig, table29 = draw("table29")
written = save_figure(fig, table29, output_dir, "table29")
plt.show()
table29

# %% [markdown]
# ## 2. Checks
# Each supplementary table should be cited once, and the ImageNet-C references should run over the
# range App. J.5 gives ("Table S18–Table S35").

# %%
rows = audit_rows("table29")
print(audit_summary(rows))
rows

# %% [markdown]
# ## 3. Verdict

# %%
display(Markdown(verdict_markdown("table29")))

# %% [markdown]
# ## Our run
# Table 29 is a reference to other tables, with no run of its own. The miniature ImageNet-RIB run's
# per-dataset accuracies of every model it fine-tunes are drawn in the notebook of Table 30 (`table30`).
