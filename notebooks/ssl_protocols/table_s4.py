# %% [markdown]
# # ssl_protocols — Table S.4: effective batch sizes per dataset
#
# **Paper.** Marks, Knott et al., *A closer look at benchmarking self-supervised pre-training with
# image classification*, supplementary material.
#
# **Question.** Which effective batch sizes did the study use for end-to-end fine-tuning and for the
# linear probe on each of its 16 dataset variants, and do they agree with the batch sizes that the
# cost table S.8 gives for the same protocols?
#
# **Caption.** "Chosen effective batch sizes for different data sets used in this study."

# %% tags=["parameters"]
output_dir: str = "figures/ssl_protocols"

# %%
import matplotlib.pyplot as plt
import pandas as pd
from IPython.display import Markdown, display

from lib.audit import audit_paper
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
display(Markdown(TABLE_NOTES["table_s4"]))

# %% [markdown]
# The cells as printed (blank: not printed):

# %%
view = table_view("table_s4")
print(f"Table S.4: {view.shape[0]} rows × {view.shape[1]} columns")
view

# %% [markdown]
# ## 2. A rendering of the table

# %%
fig, data = draw_table("table_s4")
save_figure(fig, data, output_dir, "table_s4")
plt.show()

# %% [markdown]
# ## 3. Audit
# Rows of `python -m lib audit --paper ssl_protocols` for Table S.4: the dataset counts the text
# quotes.

# %%
audit = audit_paper("ssl_protocols")
rows = audit[audit["artefact"] == "table_s4"]
print(f"{len(rows)} rows: " + ", ".join(f"{k} {v}" for k, v in sorted(rows["status"].value_counts().items())))
for row in rows.itertuples():
    print(f"[{row.status}] {row.quantity}: printed {row.printed}, recomputed {row.recomputed:.4g}"
          + (f"\n    {row.note}" if row.note else ""))

# %% [markdown]
# ## 4. Claims resting on this table

# %%
print(format_ledger(ledger(claims_for("table_s4"))))

# %% [markdown]
# ## 5. Verdict
#
# - **Counts.** The table's datasets give the "eleven" OOD datasets of the abstract and the "six"
#   ImageNet-D domains of Fig. 6's caption (`ok`).
# - **Against Table S.8.** Table S.4 gives 256 for ImageNet few-shot fine-tuning where Table S.8 gives
#   128: the two tables disagree, and the text does not say which is right (the `mismatch` rows sit
#   with Table S.8's audit).

# %% [markdown]
# ## Our run
# Table S.4 describes the paper's training setup, not a result. Our miniature study sets its own batch
# sizes in the tier's study settings (`params/<tier>/ssl_protocols/study.yaml`; at `full` the key
# `batch_sizes` takes Table S.4's values), so there is no measured table of ours to set beside it.
