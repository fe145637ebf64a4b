# %% [markdown]
# # seq_to_final — Table 3: samples per step of the variable-length rotation sequences
#
# **Paper.** Ji, Alaa and Sontag, *Seq-to-Final: a benchmark for tuning from sequential distributions
# to a final time point*.
#
# **Question.** How are the 20k samples spread over the steps of the 2- to 8-step rotation sequences of
# Table 14, and does every sequence keep 4k at the final step and 16k before it?
#
# **Caption.** "Number of samples at each time step in rotation sequence in thousands. All sequences have
# 4k samples at the final time step and 16k samples total across the other time steps."
#
# The text prints each sequence as one cell ("4, 2, 2, 2, 2, 2, 2, 4"); the CSV splits it by step.

# %% tags=["parameters"]
output_dir: str = "figures/seq_to_final"

# %%
import matplotlib.pyplot as plt
import pandas as pd
from lib.plotting import save_figure, set_style
from lib.seq_to_final.figures import audit_rows, audit_summary, draw_table03

set_style()
pd.set_option("display.width", 200)
pd.set_option("display.max_columns", 20)
pd.set_option("display.max_colwidth", 120)
pd.set_option("display.max_rows", 120)

# %% [markdown]
# ## 1. The paper's numbers
# Each row is one sequence; red = the final step.

# %%
fig, data = draw_table03()
save_figure(fig, data, output_dir, "table03")
plt.show()

# %% [markdown]
# ## 2. Audit rows
# Per sequence: the number of sizes, the final-step size, the sum before it; the 4-step row against Sec. 2.3's
# sequences and the lengths against Table 14; the overlap arithmetic of App. A.2.

# %%
rows = audit_rows("table03")
print(audit_summary(rows))
rows[["quantity", "printed", "recomputed", "delta", "tolerance", "status", "note"]].round(4)

# %% [markdown]
# ## 3. What the audit finds
# - Every sequence has n sizes, 4k at the final step and 16k before it; the 4-step row is Sec. 2.3's
#   6k/4k/6k/4k; Table 14 reports the same 7 lengths.
# - App. A.2's overlap arithmetic holds (.1 per step, .01 for two steps, 500 shared images).
# - Sec. 2.3 calls these "two to eight 30-degree rotations", but n steps carry n − 1 rotations.

# %% [markdown]
# ## Our run
# This table gives the paper's sample sizes; there is no run of ours to draw. Our tiers scale them: the study's
# settings file (`params/<tier>/seq_to_final/study.yaml`) says by how much for the four-step sequences (`sizes`)
# and for the variable-length ones (`variable_length_scale`, a factor on this table's sizes).
