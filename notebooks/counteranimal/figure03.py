# %% [markdown]
# # counteranimal — Figure 3: photos per class and group
#
# **Question.** How many photos does each class hold in its common and counter groups?
#
# **Caption.** "The data layout in the CounterAnimal dataset for common and counter groups across various classes."
#
# The counts are not printed. Every class-wise percentage of Tables 15–16 is k/n for the group's size n, so
# the smallest n consistent with all five models' percentages is a lower bound on each bar; that is what is
# drawn (log scale).

# %% tags=["parameters"]
output_dir: str = "figures/counteranimal"

# %%
import matplotlib.pyplot as plt
import pandas as pd
from IPython.display import Markdown, display

from lib.claims import ledger
from lib.counteranimal.claims import claims_for
from lib.counteranimal.figures import audit_rows, audit_summary, draw_group_sizes
from lib.plotting import save_figure, set_style

set_style()
pd.set_option("display.width", 200)
pd.set_option("display.max_columns", 20)
pd.set_option("display.max_colwidth", 90)

# %% [markdown]
# ## 1. The paper's numbers
# Smallest counts consistent with Tables 15–16, per class.

# %%
fig, data = draw_group_sizes()
save_figure(fig, data, output_dir, "figure03")
plt.show()

# %% [markdown]
# ## 2. Audit
# The bounds sum to 7,408 common photos, above the 7,174 Sec. 1 states, so the printed percentages and the
# stated total cannot both be right. Class 37's counter bound (1,776) exceeds the 300–800 photos per class of
# Sec. 2; leaving out Table 16's 62.22 gives 222 and a counter total of 5,710 (≤ 5,926).

# %%
rows = audit_rows("table15", "figure03")
print(audit_summary(rows))
problems = rows[rows["status"] != "ok"]
(problems if len(problems) else rows.head(10))[["artefact", "quantity", "printed", "recomputed", "delta", "status", "note"]].round(3)

# %% [markdown]
# ## 3. Claims resting on Figure 3
# The paper's claims that cite it, judged on the printed numbers (`lib/published/counteranimal/claims.yaml`).

# %%
claims = ledger(claims_for("figure03"))
claims[["claim_id", "section", "verdict", "evidence"]] if len(claims) else Markdown("No claim of the ledger rests on it.")

# %% [markdown]
# ## 4. Verdict
# Fig. 3 cannot be redrawn exactly; the lower bounds show groups of 47 to 501 photos but one: class 37's counter
# group, drawn as its printed percentages imply (1,776, beyond Sec. 2's 300–800 photos per class; 222 without
# Table 16's 62.22, which is likely misprinted). The common total they imply contradicts the text.

# %% [markdown]
# ## 5. Our run
# Nothing to compare: the miniature's group sizes are set by its settings (every held-out digit appears once on
# its common and once on its counter background), not collected and filtered as the paper's photos are.
