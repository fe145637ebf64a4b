# %% [markdown]
# # counteranimal — Table 13: CLIPs, 1 vs 20
#
# **Question.** How do the CLIPs fare when each class is scored against only its 20 most confusable labels?
#
# **Caption.** "The 1 versus 20 performance on CounterAnimal for CLIPs. The pre-train datasets with high-quality data are
# marked by *."
#
# The candidate sets come from the curation CLIP (App. C.1) and are not printed.

# %% tags=["parameters"]
output_dir: str = "figures/counteranimal"

# %%
import matplotlib.pyplot as plt
import pandas as pd
from IPython.display import Markdown, display

from lib.claims import ledger
from lib.counteranimal.claims import claims_for
from lib.counteranimal.figures import audit_rows, audit_summary, draw_model_table
from lib.plotting import save_figure, set_style

set_style()
pd.set_option("display.width", 200)
pd.set_option("display.max_columns", 20)
pd.set_option("display.max_colwidth", 90)

# %% [markdown]
# ## 1. The paper's numbers
# Common and counter accuracy (%) and the drop (points), cells as printed.

# %%
fig, data = draw_model_table("table13")
save_figure(fig, data, output_dir, "table13")
plt.show()

# %% [markdown]
# ## 2. Audit
# All 28 drops equal common − counter; the accuracies themselves cannot be recomputed (candidate sets not
# printed).

# %%
rows = audit_rows("table13")
print(audit_summary(rows))
problems = rows[rows["status"] != "ok"]
(problems if len(problems) else rows.head(10))[["artefact", "quantity", "printed", "recomputed", "delta", "status", "note"]].round(3)

# %% [markdown]
# ## 3. Claims resting on Table 13
# The paper's claims that cite it, judged on the printed numbers (`lib/published/counteranimal/claims.yaml`).

# %%
claims = ledger(claims_for("table13"))
claims[["claim_id", "section", "verdict", "evidence"]] if len(claims) else Markdown("No claim of the ledger rests on it.")

# %% [markdown]
# ## 4. Verdict
# Accuracies rise by 0.3–5 points against 1 vs 1000 while drops change by less than 2 points for 27 of 28
# CLIPs (ConvNext/B LAION400M: +2.1).
