# %% [markdown]
# # seq_to_final — Table 15: initialization versus regularization towards previous weights
#
# **Paper.** Ji, Alaa and Sontag, *Seq-to-Final: a benchmark for tuning from sequential distributions
# to a final time point*.
#
# **Question.** Is initializing at the previous step's weights what makes fine-tuning work (which the
# joint model lacks), and does the frozen two-step joint model replicate the fine-tuning variants it
# implements?
#
# **Caption.** "Test accuracy from variants of fine-tuning that examine the importance of initialization
# at previous parameters versus regularization towards previous parameters."
#
# RCL sequence, Res-4. The caption: "each row i + 4 [is] equivalent to row i for i = 0, 1, 2, 3"
# (rows counted from 0).

# %% tags=["parameters"]
output_dir: str = "figures/seq_to_final"
study_params: str = "params/mini/seq_to_final/study.yaml"
results_dir: str = "results"

# %%
import matplotlib.pyplot as plt
import pandas as pd
from lib.claims import format_ledger, ledger
from lib.plotting import save_figure, set_style
from lib.seq_to_final.claims import claims_for
from lib.seq_to_final.figures import audit_rows, audit_summary, draw_table15

set_style()
pd.set_option("display.width", 200)
pd.set_option("display.max_columns", 20)
pd.set_option("display.max_colwidth", 120)
pd.set_option("display.max_rows", 120)

# %% [markdown]
# ## 1. The paper's numbers
# Each fine-tuning variant (rows 0-3) beside its frozen-joint replication (rows 4-7).

# %%
fig, data = draw_table15()
save_figure(fig, data, output_dir, "table15")
plt.show()

# %% [markdown]
# ## 2. Audit rows
# Each replication pair (tolerance ±0.005: equal at the two decimals of Tables 8-14; the note gives the
# difference in test images) and rows 0-1 against Table 9's Res-4 row (same sequence and architecture).

# %%
rows = audit_rows("table15")
print(audit_summary(rows))
rows[["quantity", "printed", "recomputed", "delta", "tolerance", "status", "note"]].round(4)

# %% [markdown]
# ## 3. Claims resting on this table
# Verdicts of the claims ledger (`lib/published/seq_to_final/claims.yaml`) on the printed numbers.

# %%
print(format_ledger(ledger(claims_for("table15"))))

# %% [markdown]
# ## 4. What the audit finds
# - Rows 4-6 replicate rows 0-2 within 2-15 of 5000 test images; row 7 differs from row 3 by 40 images
#   (.6564 vs .6644), more than the ±.005 the other tables resolve (the text's "almost equivalent"
#   holds at ±.01).
# - Rows 0 and 1 are not Table 9's Res-4 cells: ERM final .5470 vs the 4k baseline .53, standard
#   fine-tuning .6766 vs FT .67 (different runs).
# - Ablating the initialization costs .012 (61 images), one run each.

# %% [markdown]
# ## Our run
# **The miniature** (`lib.seq_to_final.study`, settings: the file `study_params` names; its comments say what is
# scaled down and why): Table 15's fine-tuning rows 0-3 on the RCL sequence (rotation, corruption, label flip) of
# scikit-learn's digits at 8 px (CIFAR-10's stand-in), drawn by the same shift blocks, sampler and seeds as the
# official code at 2.5 % of the paper's sizes, on Conv-1 (the paper: Res-4, beyond the mini budget), with one grid
# point, <= 3 epochs and three training seeds. Rows 4-7 (the frozen two-step joint model, which the caption says
# replicates rows 0-3 by the same computation) are not run. At `tiny` the same code runs on a few dozen images: a
# smoke test, not evidence.
#
# `table15_ours` draws the paper's table (left) and ours (right) with one function (`lib.plotting`'s
# `paper_and_ours_hbars`) on one accuracy axis, in the redraw's form: one group per fine-tuning variant, the paper's
# row 0-3 beside the frozen-joint row 4-7 meant to replicate it, every bar labelled; ours with its 95 % t-interval
# over seeds as an error bar. Its CSV holds both in the one results schema (`source` paper / ours, `spread` =
# half-width of our t-interval). Each finding is a difference A − B per unit (seeds, on RCL with Conv-1), judged
# by its t-interval; the paper's value is the same difference on its printed rows, one run each, and each finding
# says whether our interval is wider than the margin the claim rests on.

# %%
from lib.findings import report
from lib.seq_to_final.ours import cells_text, table15_ours, our_panel, run_study

settings, ours = run_study(study_params, results_dir)
our_data, our_fig, findings = our_panel("table15", ours)
save_figure(our_fig, our_data, output_dir, "table15_ours")
plt.show()
print(cells_text(table15_ours(ours), index="method", columns=None).to_string())

# %%
print(report(findings))

# %% [markdown]
# ### Verdict on our run
# At `mini` (RCL, Conv-1, 3 seeds; rows 4-7 are the same computations and are not re-run):
# - **Ablating the initialisation falls below standard fine-tuning, but within .02: not distinguishable** (+.03
#   [−.06, .13]): the interval is far wider than the paper's .012 gap, and our point estimate has the other sign.
#   Fine-tuning with a pull towards the previous weights gives exactly the same accuracy as standard FT here
#   in every seed (mean .639): at this scale the pull does not move the selected model.
# - **Fine-tuning beats ERM on the final step: not distinguishable** (+.02 [−.28, .32]).
# The toy cannot test this table's claims: they rest on differences of one percent, one run each.
