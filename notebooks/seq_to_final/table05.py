# %% [markdown]
# # seq_to_final — Table 5: covariate and conditional shift of the synthetic sequences
#
# **Paper.** Ji, Alaa and Sontag, *Seq-to-Final: a benchmark for tuning from sequential distributions
# to a final time point*.
#
# **Question.** How far is each step of the five synthetic sequences from the final step, in pixel space
# (PCA, then Wasserstein-2, relative to the in-distribution distance)?
#
# **Caption.** "Quantifying covariate and conditional shift (top and bottom, respectively) at each step in
# the synthetic sequences with the metrics defined in Equations 5 and 7 based on the Wasserstein-2
# distance from the final distribution. Distances above 1 indicate more shift than in-distribution
# evaluation."
#
# The text lost the conditional bar of the bottom panel's header (W_{X|Y}).

# %% tags=["parameters"]
output_dir: str = "figures/seq_to_final"
study_params: str = "params/mini/seq_to_final/study.yaml"
shift_draws: int = 8

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
# Both panels as printed (t: the step compared with the final step 3).

# %%
fig, data = draw_shift_table("table05")
save_figure(fig, data, output_dir, "table05")
plt.show()

# %% [markdown]
# ## 2. Audit rows
# The equalities Sec. B.2 reads off the table; the ratios themselves need the images (our run computes them).

# %%
rows = audit_rows("table05")
print(audit_summary(rows))
rows[["quantity", "printed", "recomputed", "delta", "tolerance", "status", "note"]].round(4)

# %% [markdown]
# ## 3. Claims resting on this table
# Verdicts of the claims ledger (`lib/published/seq_to_final/claims.yaml`) on the printed numbers.

# %%
print(format_ledger(ledger(claims_for("table05"))))

# %% [markdown]
# ## 4. What the audit finds
# - For RCL the covariate metric is equal at steps 1 and 2 (1.00, 1.00), as the text says, but the
#   conditional one differs by .01 (1.13 vs 1.12), where the text says there is no difference.
# - The orderings the text draws (RCL and TTT closer at later steps, rrr's source closer than its
#   intermediate steps, sss around 1) hold on the printed values (claims below).

# %% [markdown]
# ## Our run
# The same metrics (`lib.seq_to_final.shift_metrics`: the official code's PCA to 95 % variance and exact
# transport, tested on known answers) on the five synthetic sequences of our study (settings: the file
# `study_params` names; at `mini` the shift building blocks on scikit-learn's 8-px digits, 150/100/150/100
# images per step and a 300-image final test set, against the paper's 32-px CIFAR with thousands per step).
# The metrics depend only on the images drawn, so the replicates are draws of the data: draw d builds every
# sequence with the data seed `data_seed` + d (the study's own sequences are draw 0), `shift_draws` draws in all
# (`lib.seq_to_final.shift_runs`). The figure `table05_ours` is drawn by the function that drew section 1, on
# its colour scale: each cell the mean over draws ± the half-width of its 95 % t-interval; its CSV holds every
# draw. Then the claims of section 3 judged on the printed numbers and on ours (our verdict: a sign test over
# the draws, as the ledger judges our tables).
#
# **Reading ours.** Two steps of one sequence are independent draws of a few hundred images, so the W2 ratio of
# two steps that share a distribution (RCL's steps 1 and 2 differ only by their labels) still differs by a few
# hundredths, beyond the ledger's "equal to two decimals"; the paper's thousands of images per step shrink that
# noise. The other orderings are not all shared (at `mini`): RCL's and the red tints' steps do come closer to the
# final step, but in our conditional rotations the source is the farthest step (W_X 2.50 against 2.26 and 1.80
# at steps 1 and 2), and our
# sub-population sequence sits at 1.07-1.17, not at 1; both may owe something to our small steps (100-150 images
# against a 300-image test set), which this notebook does not separate from the shifts themselves. The colour
# scale is section 1's (0.5-1.8), so cells above 1.8 (CLR, rrr, RCL's source step) saturate; read them by their
# numbers.

# %%
from lib.seq_to_final.shift_runs import our_shift_panel

our_data, our_fig, our_ledger = our_shift_panel("table05", study_params, shift_draws)
save_figure(our_fig, our_data, output_dir, "table05_ours")
plt.show()
print(format_ledger(our_ledger))
