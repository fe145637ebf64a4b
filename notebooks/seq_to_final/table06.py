# %% [markdown]
# # seq_to_final — Table 6: covariate and conditional shift of the Portraits decades
#
# **Paper.** Ji, Alaa and Sontag, *Seq-to-Final: a benchmark for tuning from sequential distributions
# to a final time point*.
#
# **Question.** How far is each decade of the Portraits sequence from the 2000s, in pixel space?
#
# **Caption.** "Quantifying covariate and conditional shift at each decade in the Portraits sequence with
# the metrics defined in Equations 5 and 7 based on the Wasserstein-2 distance from the final distribution
# in the 2000s. Distances above 1 indicate more shift than in-distribution evaluation."

# %% tags=["parameters"]
output_dir: str = "figures/seq_to_final"

# %%
import matplotlib.pyplot as plt
import pandas as pd
from lib.claims import format_ledger, ledger
from lib.plotting import save_figure, set_style
from lib.seq_to_final.claims import claims_for
from lib.seq_to_final.figures import audit_rows, audit_summary, draw_shift_table

set_style()
pd.set_option("display.width", 200)
pd.set_option("display.max_columns", 20)
pd.set_option("display.max_colwidth", 120)
pd.set_option("display.max_rows", 120)

# %% [markdown]
# ## 1. The paper's numbers
# Both metrics per decade, as printed.

# %%
fig, data = draw_shift_table("table06")
save_figure(fig, data, output_dir, "table06")
plt.show()

# %% [markdown]
# ## 2. Audit rows
# The ratios need the Portraits images; the text's orderings are judged in the claims.

# %%
rows = audit_rows("table06")
print(audit_summary(rows))
rows[["quantity", "printed", "recomputed", "delta", "tolerance", "status", "note"]].round(4)

# %% [markdown]
# ## 3. Claims resting on this table
# Verdicts of the claims ledger (`lib/published/seq_to_final/claims.yaml`) on the printed numbers.

# %%
print(format_ledger(ledger(claims_for("table06"))))

# %% [markdown]
# ## 4. What the audit finds
# - Nothing here can be recomputed without the images.
# - The orderings of Sec. B.2 hold on the printed values: the 1940s-1960s are farther from the 2000s than
#   the 1970s-1990s, which decrease steadily, and the 1930s are closer than the 1940s-1960s.

# %% [markdown]
# ## Our run
# `lib.seq_to_final.shift_metrics` implements these ratios (tested on known answers), but no tier runs them on
# our Portraits stand-in: this notebook has no run of ours.
