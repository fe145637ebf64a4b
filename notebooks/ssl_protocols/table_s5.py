# %% [markdown]
# # ssl_protocols — Table S.5: where the 26 checkpoints come from
#
# **Paper.** Marks, Knott et al., *A closer look at benchmarking self-supervised pre-training with
# image classification*, supplementary material.
#
# **Question.** Where does each of the 26 pre-trained checkpoints come from, so that a reader can load
# the exact weights the study evaluated?
#
# **Caption.** "Sources of the pre-trained model checkpoints used in this study."

# %% tags=["parameters"]
output_dir: str = "figures/ssl_protocols"

# %%
import matplotlib.pyplot as plt
import pandas as pd
from IPython.display import Markdown, display

from lib.claims import ledger
from lib.plotting import save_figure, set_style
from lib.ssl_protocols.claims import claims_for, format_ledger
from lib.ssl_protocols.tables import TABLE_NOTES, draw_table, table_view

set_style()
pd.set_option("display.width", 200)
pd.set_option("display.max_columns", 80)
pd.set_option("display.max_rows", 80)

# %% [markdown]
# ## 1. The table
# What it holds and what the text dump does to it (details and evidence:
# `lib/published/ssl_protocols/README.md`):

# %%
display(Markdown(TABLE_NOTES["table_s5"]))

# %% [markdown]
# The cells as printed (blank: not printed):

# %%
view = table_view("table_s5")
print(f"Table S.5: {view.shape[0]} rows × {view.shape[1]} columns")
view

# %% [markdown]
# ## 2. A rendering of the table

# %%
fig, data = draw_table("table_s5")
save_figure(fig, data, output_dir, "table_s5")
plt.show()

# %% [markdown]
# ## 3. Claims resting on this table
# No number of the text or of another table is derived from Table S.5, so `python -m lib audit --paper
# ssl_protocols` has no row for it.

# %%
print(format_ledger(ledger(claims_for("table_s5"))))

# %% [markdown]
# ## 4. Verdict
#
# Table S.5 holds no numbers: nothing in it can be re-derived, and the audit has no row for it. Its
# use is as a source list, and the text dump keeps only each link's text (`href="#"`), not the URLs;
# the checkpoints our `full` tier loads are listed with their sources in `lib/registry/models.csv`.

# %% [markdown]
# ## Our run
# There is no run to compare with a list of sources. At `tiny` and `mini` our zoo is small models
# pre-trained on the digits in this repository; at `full` the study loads the paper's checkpoints
# through the model registry.
