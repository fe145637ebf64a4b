# %% [markdown]
# # counteranimal — Figure 7: backbones at fixed pre-training data
#
# **Question.** Do larger backbones drop less on LAION2B and on OpenAI's data?
#
# **Caption.** "Results of CLIPs with different backbones and fixed pre-train datasets. The 1 vs. 1000 results are given."
#
# Redrawn from the rows of Tables 3 and 4 the panels compare (tick colours: family).

# %% tags=["parameters"]
output_dir: str = "figures/counteranimal"

# %%
import matplotlib.pyplot as plt
import pandas as pd
from IPython.display import Markdown, display

from lib.claims import ledger
from lib.counteranimal.claims import claims_for
from lib.counteranimal.figures import audit_rows, audit_summary, draw_bars
from lib.plotting import save_figure, set_style

set_style()
pd.set_option("display.width", 200)
pd.set_option("display.max_columns", 20)
pd.set_option("display.max_colwidth", 90)

# %% [markdown]
# ## 1. The paper's numbers
# Common, counter and drop per model and panel.

# %%
fig, data = draw_bars("figure07")
save_figure(fig, data, output_dir, "figure07")
plt.show()

# %% [markdown]
# ## 2. Audit
# The figure's numbers are Tables 3 and 4, whose 43 drops all equal common − counter.

# %%
rows = audit_rows("table03", "table04")
print(audit_summary(rows))
problems = rows[rows["status"] != "ok"]
(problems if len(problems) else rows.head(10))[["artefact", "quantity", "printed", "recomputed", "delta", "status", "note"]].round(3)

# %% [markdown]
# ## 3. Claims resting on Figure 7
# The paper's claims that cite it, judged on the printed numbers (`lib/published/counteranimal/claims.yaml`).

# %%
claims = ledger(claims_for("figure07"))
claims[["claim_id", "section", "verdict", "evidence"]] if len(claims) else Markdown("No claim of the ledger rests on it.")

# %% [markdown]
# ## 4. Verdict
# The drop falls at 3 of 4 steps on LAION2B (ViT/G/14 drops more than ViT/H/14), 3 of 4 for the OpenAI ResNets
# (RN50×4 more than RN101) and at both steps for the OpenAI ViTs: a clear but not strict trend, as the text
# says.

# %% [markdown]
# ## 5. Our run
# Not testable here: the miniature has one CLIP architecture (`tiny_clip`), so backbone scale has no counterpart.
