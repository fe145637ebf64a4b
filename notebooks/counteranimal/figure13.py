# %% [markdown]
# # counteranimal — Figure 13: common vs counter with model names, 1 vs 1000
#
# **Question.** Which models sit where in the 1 vs 1000 common-vs-counter plane?
#
# **Caption.** "The common vs. counter performance (%) for CLIPs and ImageNet models, following the 1 vs. 1000 setup. We
# also present the model setups for each common-counter result pair."
#
# Redrawn from Tables 3 and 4 with each point named; lines as in Fig. 2.

# %% tags=["parameters"]
output_dir: str = "figures/counteranimal"

# %%
import matplotlib.pyplot as plt
import pandas as pd
from IPython.display import Markdown, display

from lib.claims import ledger
from lib.counteranimal.claims import claims_for
from lib.counteranimal.figures import audit_rows, audit_summary, draw_scatter
from lib.plotting import save_figure, set_style

set_style()
pd.set_option("display.width", 200)
pd.set_option("display.max_columns", 20)
pd.set_option("display.max_colwidth", 90)

# %% [markdown]
# ## 1. The paper's numbers
# Every model named.

# %%
fig, data = draw_scatter("figure13")
save_figure(fig, data, output_dir, "figure13")
plt.show()

# %% [markdown]
# ## 2. Audit
# The numbers are the tables' (all drops consistent except as listed).

# %%
rows = audit_rows("table03", "table04")
print(audit_summary(rows))
problems = rows[rows["status"] != "ok"]
(problems if len(problems) else rows.head(10))[["artefact", "quantity", "printed", "recomputed", "delta", "status", "note"]].round(3)

# %% [markdown]
# ## 3. Claims resting on Figure 13
# The paper's claims that cite it, judged on the printed numbers (`lib/published/counteranimal/claims.yaml`).

# %%
claims = ledger(claims_for("figure13"))
claims[["claim_id", "section", "verdict", "evidence"]] if len(claims) else Markdown("No claim of the ledger rests on it.")

# %% [markdown]
# ## 4. Verdict
# Figure 2(a) with names: the CLIPs furthest below the CLIP line are the ViT/B/32s (the curation model −7.7
# points, LAION2B −4.6, DataComp1B −4.1); ImageNet ConvNexts and ViTs sit at the top right with the DFN CLIPs.
