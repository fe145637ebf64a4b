# %% [markdown]
# # seq_to_final — Table 14: Variable-length rotation sequences (Res-4, CIFAR-10)
#
# **Paper.** Ji, Alaa and Sontag, *Seq-to-Final: a benchmark for tuning from sequential distributions
# to a final time point*.
#
# **Question.** With 20k samples spread over 2 to 8 steps of 30° rotations (Table 3), how does each method
# do on Res-4 as the sequence gets longer, and do the Mean and Std dev rows across lengths follow from the
# rows?
#
# **Caption.** "Test accuracy at final time step for sequence of rotations on CIFAR-10 data with 4-block
# ResNet architecture."
#
# Oracle is the last column (20k), the baseline the first (4k). Italic: within .02 of (or above) the
# oracle; bold: oracle-like or within .02 of the best, per row; the Mean row is bold (italic) when the
# mean difference to the best (oracle) is less than one standard deviation above 0. The text lost
# every mark; the figure applies the rules to the printed numbers.

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
from lib.seq_to_final.figures import audit_rows, audit_summary, draw_accuracy_table

set_style()
pd.set_option("display.width", 200)
pd.set_option("display.max_columns", 20)
pd.set_option("display.max_colwidth", 120)
pd.set_option("display.max_rows", 120)

# %% [markdown]
# ## 1. The paper's numbers
# Rows × methods as printed (`—`: no value), the Mean row beneath, the Std dev row on its own scale;
# bold / italic (*) by the caption's rules.

# %%
fig, data = draw_accuracy_table("table14")
save_figure(fig, data, output_dir, "table14")
plt.show()

# %% [markdown]
# ## 2. Audit rows
# Every Mean and Std dev cell recomputed from the rows above it, under the official summary
# script's reading (ConvNets counted in the -B side-tuning columns only, population standard
# deviation), with a tolerance of ±0.01 (the printed summary and every row it averages are
# rounded to two decimals).

# %%
rows = audit_rows("table14")
print(audit_summary(rows))
summary = rows[rows["quantity"].str.match(r"^(Mean|Std dev) of ")]
display_columns = ["quantity", "printed", "recomputed", "delta", "status"]
print(summary[display_columns].round(4).to_string(index=False))

# %% [markdown]
# Which readings reproduce the side-tuning cells (each note lists every reading with its value:
# `=` rounds to the printed text, `✓` within ±0.01, `✗` outside).

# %%
for r in summary[summary["quantity"].str.contains("ST-")].itertuples():
    print(f"{r.quantity} (printed {r.printed}): {r.note}\n")

# %% [markdown]
# The bold and italic sets by the caption's rules (`not_checkable`: the text lost the formatting).

# %%
formats = rows[rows["status"] == "not_checkable"]
print(formats[["quantity", "note"]].to_string(index=False))

# %% [markdown]
# ## 3. Claims resting on this table
# Verdicts of the claims ledger (`lib/published/seq_to_final/claims.yaml`) on the printed numbers.

# %%
print(format_ledger(ledger(claims_for("table14"))))

# %% [markdown]
# ## 4. What the audit finds
# - All 36 Mean and Std dev cells are reproduced (averages over the 7 lengths, population std).
# - Rows are numbers of steps: a sequence of n steps has n − 1 rotations (the text's "two to eight
#   30-degree rotations" would be 60° to 240°; its own remark that lengths 4 and 7 end at 90° and 180°
#   confirms n − 1).
# - At length 2 EWC (.65) and SFT (.63) beat every class-2 method (best .62), the one exception to
#   App. E's "some variant of learning from all historical data and fine-tuning performs just as
#   well" (the text notes that SFT and EWC are then fine-tuning with more hyper-parameters).

# %% [markdown]
# ## Our run
# **The miniature** (`lib.seq_to_final.study`, settings: the file `study_params` names; its comments say what is
# scaled down and why): the variable-length rotation sequences of Table 14 on scikit-learn's digits at 8 px (CIFAR-10's
# stand-in), drawn by the same rotation block, sampler and seeds as the official code, at their shortest and
# longest lengths only (2 and 8 steps of Table 3's sizes x 0.025; the paper runs 2-8), on Conv-1 (the paper:
# Res-4, beyond the mini budget); the 18 columns of Table 1 by the official procedures with one grid point,
# <= 3 epochs; three training seeds. Our Mean and Std dev rows are therefore over two lengths, the paper's over
# seven, and Table 14's claims about lengths 3-7 cannot be tested here. At `tiny` the same code runs a handful of
# methods on a few dozen images: a smoke test, not evidence.
#
# `table14_ours` draws the paper's table (above) and ours (below, on the paper's columns) with one function (`lib.plotting`'s
# `paper_and_ours_heatmaps`) on one colour scale; its CSV holds both in the one results schema (`source` paper / ours,
# `spread` = half-width of our 95 % t-interval over seeds); the Std dev rows are in the CSV, left out of the
# heatmap whose colour scale is the accuracies'. Our Mean and Std dev rows are computed per
# seed as the paper computes them from its rows (mean, population standard deviation), then averaged over seeds;
# the study's `summary_rows` says which rows count in the side-tuning columns (full: the official script's
# reading, a ConvNet's side runs in the -B columns only; mini and tiny, ConvNets only: every row in every column).
# Under the paper's Mean row, `Mean (…)` is the mean of its printed values over the rows our run has (blank
# where one of them prints `—`), so that our Mean row meets the paper's over the same rows.
# Each finding is a difference A − B per unit ((method, seed) pairs: the longest minus the shortest sequence),
# judged by its t-interval; the paper's value is the same difference on its printed
# rows (the longest minus the shortest length per method), one run each,
# and each finding says whether our interval is wider
# than the margin the claim rests on.

# %%
from lib.findings import report
from lib.seq_to_final.ours import cells_text, gap_panel, our_panel, our_table, run_study

settings, ours = run_study(study_params, results_dir)
our_data, our_fig, findings = our_panel("table14", ours)
save_figure(our_fig, our_data, output_dir, "table14_ours")
plt.show()

# %% [markdown]
# The same two tables as the share of the gap from Baseline to Oracle each method closes in its row,
# (accuracy − Baseline) / (Oracle − Baseline): 0 is the baseline, 1 the oracle, below 0 worse than the baseline
# (`gap_panel`; ours from the means over seeds). One absolute colour scale compares the tasks' difficulty as much
# as the methods; on this one the methods' differences show whatever the row's level.

# %%
gap_data, gap_fig = gap_panel("table14", ours)
save_figure(gap_fig, gap_data, output_dir, "table14_ours_gap")
plt.show()
print(cells_text(our_table(ours, "table14")).to_string())

# %%
print(report(findings))

# %% [markdown]
# ### Verdict on our run
# At `mini` (Conv-1, the paper's Res-4 being beyond the budget; lengths 2 and 8 only, 3 seeds):
# - **Performance deteriorates as sequences get longer: supported.** Accuracy at 8 steps − at 2 steps = −.122
#   [−.165, −.079] over (method, seed) pairs, the -B columns left out as ST-1's, SST-1's and JST-1's own runs
#   (paper −.054 over its 18 methods): the joint models, DRO and IRM
#   lose most (JST −.37, DRO −.36, JM −.30, IRM −.23; each step adds 30 degrees, so the 8-step history spans
#   210 degrees of rotation), while the baseline and ST-1 do not lose (+.05, +.04).
# - "Lengths 4 and 7 do better" needs lengths we did not run (not checkable); "class 2 is enough at every length"
#   is judged by the ledger on lengths 2 and 8 only (the notebook of the claims). The Mean and Std dev rows here
#   are over our two lengths, not the paper's seven.
