# %% [markdown]
# # imagenet_rib — Table 3: mRI of every method and model
#
# **Question.** Which fine-tuning method keeps robustness best, measured by the mean robustness
# improvement (mRI, Eq. 1 averaged over the eight fine-tuning sets), for every architecture and
# pretraining set with an ImageNet-1K classifier? And does vanilla fine-tuning hurt the models
# pretrained on the largest data most?
#
# **Caption.** "Mean Robustness Improvement (mRI) after fine-tuning with different fine-tuning
# methods."
#
# Table 3 is the paper's central table. Its mRIs repeat those of the per-model RI tables (Tables
# 22–28), where they are printed beside the eight RIs they average.

# %% tags=["parameters"]
output_dir: str = "figures/imagenet_rib"
benchmark_params: str = "params/mini/imagenet_rib/benchmark.yaml"
results_dir: str = "results"

# %%
import matplotlib.pyplot as plt
import pandas as pd
from IPython.display import Markdown, display

from lib.imagenet_rib.figures import audit_rows, audit_summary, draw, method_matrix, verdict_markdown
from lib.plotting import save_figure, set_style

set_style()
pd.set_option("display.width", 200)
pd.set_option("display.max_columns", 20)

# %% [markdown]
# ## 1. The paper's numbers
# Rows are methods (or settings), columns models; each cell shows the printed text. Red is negative,
# blue positive.

# %%
fig, data = draw("table03")
save_figure(fig, data, output_dir, "table03")
plt.show()
values, _ = method_matrix("table03")
values

# %% [markdown]
# ## 2. Re-derivation and audit rows
# Each mRI against the same number in Tables 22–28 (and, there, against the mean of its eight RIs).
# The IN-21K + AugReg models are `not_checkable`: their RI table (Table 25) has no body in the text.

# %%
rows = audit_rows("table03")
print(audit_summary(rows))
rows.round(3)

# %% [markdown]
# ## 3. Verdict

# %%
display(Markdown(verdict_markdown("table03")))

# %% [markdown]
# ## Our run
# The miniature ImageNet-RIB (`lib.imagenet_rib.benchmark`, settings: the file the `benchmark_params`
# parameter names): at `tiny` and `mini` a small ViT "pretrained" on the digits under two regimes
# (`clean`, the analogue of IN-1K, and `augmented`, pretrained with image-corruption augmentation, the
# analogue of IN-1K + AugReg: `lib.imagenet_rib.benchmark.REGIME_ANALOGUES`), fine-tuned with every method on each shifted digit domain of the
# suite and evaluated on all of them and on the clean digits; RI and mRI by Eq. 1, mean over the
# tier's seeds. At `full` the same code runs the paper's models and datasets.
# A finding is judged by its t-interval over the seeds; with a single seed (`tiny`, and `full`, the paper's
# one run per model) by a seeded bootstrap over the fine-tuning sets, whose means the table's rows are: it
# asks how much the verdict rests on which datasets were fine-tuned on, not on training noise.
# Our methods have one row the paper's tables lack, "EWC (L2, released code)": the plain L2 pull to
# the pretrained weights that the authors' released code runs as EWC, beside Fisher-weighted EWC (the
# row EWC) as the text describes it.
#
# The figure: the paper's mRIs (left; columns its models) and ours (right; columns our two
# pretraining regimes, mean over seeds) drawn by one function on one colour scale, methods in the
# paper's order. The CSV holds both in one schema (`source` paper / ours, ours per seed).

# %%
from lib.imagenet_rib.pairs import PAIRS, paired_panel

our_data, our_fig, findings = paired_panel("table03", benchmark_params, results_dir)
save_figure(our_fig, our_data, output_dir, "table03_ours")
plt.show()
display(Markdown(f"**What differs from the paper:** {PAIRS['table03'].difference}."))
print(findings)
