# %% [markdown]
# # counteranimal — Table 12: ImageNet models without class balancing
#
# **Question.** Do the ImageNet models' drops hold when accuracy is averaged over images?
#
# **Caption.** "The 1 vs. 1000 performance on CounterAnimal for ImageNet models, evaluating based on the accuracy without
# balancing."
#
# Companion of Table 11 for the ImageNet models.

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
fig, data = draw_model_table("table12")
save_figure(fig, data, output_dir, "table12")
plt.show()

# %% [markdown]
# ## 2. Audit
# All 15 drops equal common − counter.

# %%
rows = audit_rows("table12")
print(audit_summary(rows))
problems = rows[rows["status"] != "ok"]
(problems if len(problems) else rows.head(10))[["artefact", "quantity", "printed", "recomputed", "delta", "status", "note"]].round(3)

# %% [markdown]
# ## 3. Claims resting on Table 12
# The paper's claims that cite it, judged on the printed numbers (`lib/published/counteranimal/claims.yaml`).

# %%
claims = ledger(claims_for("table12"))
claims[["claim_id", "section", "verdict", "evidence"]] if len(claims) else Markdown("No claim of the ledger rests on it.")

# %% [markdown]
# ## 4. Verdict
# ImageNet models drop 12.3 to 25.1 points unbalanced (mean 18.9, CLIPs 20.6); with images weighted equally
# they no longer sit clearly above the CLIP line (Fig. 2's notebook: interval straddles zero).
