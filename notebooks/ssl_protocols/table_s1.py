# %% [markdown]
# # ssl_protocols — Table S.1: which evaluation protocols SSL papers report
#
# **Paper.** Marks, Knott et al., *A closer look at benchmarking self-supervised pre-training with
# image classification*, supplementary material.
#
# **Question.** Which classification protocols do self-supervised learning papers actually report, and
# are partial fine-tuning and SVM probing as rare as App. A says? App. A gives their rarity as the
# reason the study leaves both out; Sec. 2.2 cites papers for each protocol, which the survey should
# tick.
#
# **Caption.** "Survey on classification-based evaluation protocols for self-supervised learning in a
# selection of papers. A ✓ denotes that the protocol was used in the mentioned paper."

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
display(Markdown(TABLE_NOTES["table_s1"]))

# %% [markdown]
# The cells as printed (blank: not printed):

# %%
view = table_view("table_s1")
print(f"Table S.1: {view.shape[0]} rows × {view.shape[1]} columns")
view

# %% [markdown]
# ## 2. A rendering of the table

# %%
fig, data = draw_table("table_s1")
save_figure(fig, data, output_dir, "table_s1")
plt.show()

# %% [markdown]
# ## 3. Audit
# Rows of `python -m lib audit --paper ssl_protocols` for Table S.1: the protocols Sec. 2.2 cites
# papers for, and App. A's rarity statement.

# %%
audit = audit_paper("ssl_protocols")
rows = audit[audit["artefact"] == "table_s1"]
print(f"{len(rows)} rows: " + ", ".join(f"{k} {v}" for k, v in sorted(rows["status"].value_counts().items())))
for row in rows.itertuples():
    print(f"[{row.status}] {row.quantity}: printed {row.printed}, recomputed {row.recomputed:.4g}"
          + (f"\n    {row.note}" if row.note else ""))

# %% [markdown]
# ## 4. Claims resting on this table

# %%
print(format_ledger(ledger(claims_for("table_s1"))))

# %% [markdown]
# ## 5. Verdict
#
# - **Citations.** Sec. 2.2's citations agree with the ticks for kNN, linear probing, SVM, full and
#   few-shot fine-tuning. For partial fine-tuning they do not: Jigsaw [48] is cited for it, but its
#   row ticks full fine-tuning (`mismatch`).
# - **Rarity.** Partial fine-tuning and SVM are indeed the two rarest in-domain protocols of the
#   survey, so App. A's reason for excluding them holds.

# %% [markdown]
# ## Our run
# Table S.1 is a survey of the literature: it records which protocols 23 papers report. There is
# nothing to run, so no panel of ours stands beside it; our study runs every protocol the paper keeps
# (kNN, linear probing, fine-tuning and few-shot fine-tuning), see Figures 2 and 3.
