# %% [markdown]
# # seq_to_final — Figure 3: order of sub-populations, first 10 CIFAR-100 super-classes
#
# **Paper.** Ji, Alaa and Sontag, *Seq-to-Final: a benchmark for tuning from sequential distributions
# to a final time point*.
#
# **Question.** In the sub-population sequence (sss), which fine class of each of the first ten CIFAR-100
# super-classes is present at step 0 and which enters at steps 1, 2 and 3 — and how many images of each
# does a step really hold?
#
# **Caption.** "Order of sub-populations in first 10 label classes in CIFAR-100. The first two
# sub-populations are present at step 0. The other three sub-populations are introduced in the order shown
# at steps 1, 2, and 3."
#
# **What the paper describes** (Sec. 2.3, App. A): step 0 has two fine classes per super-class; step 1
# adds a third; steps 2 and 3 each replace an original fine class by a new one, so the three fine classes
# of the final step are distinct from the two of step 0 (proportions 1/2, 1/2 → 1/3 each).
#
# **Our drawing.** The order is `lib.seq_to_final.shifts.SUBPOPULATION_ORDER`, the official code's fixed
# list (`select_cifar100_samples`). Right: the train+validation images per fine class at each step with the
# sss sizes (6k/4k/6k/4k over 20 super-classes), once under the text's proportions and once counted as the
# official code counts them (`shifts.subpopulation_counts(..., reading="code")`, checked against the
# official function).

# %% tags=["parameters"]
output_dir: str = "figures/seq_to_final"

# %%
import matplotlib.pyplot as plt
import pandas as pd
from lib.plotting import save_figure, set_style
from lib.seq_to_final.illustrations import draw_subpopulation_order

set_style()
pd.set_option("display.width", 200)
pd.set_option("display.max_columns", 20)

# %% [markdown]
# ## 1. The figure, drawn from our fixed order

# %%
fig, data = draw_subpopulation_order(range(0, 10))
save_figure(fig, data, output_dir, "figure03")
plt.show()

# %% [markdown]
# ## 2. Images per fine class and step, by reading (the same for every super-class)

# %%
first = data[data["superclass"] == 0]
first.pivot_table(index=["reading", "position", "fine_class"], columns="step", values="train_valid_images")

# %% [markdown]
# ## 3. Verdict
# - The order is the official code's list (the text's own examples are from super-classes 16 and 18, in
#   Figure 4); each super-class has two fine classes at step 0 and one more at each of steps 1-3.
# - **The official code does not build the shift the text describes.** Its loop gives the remainder to
#   every fine class after the last one with a non-zero proportion and does not add it to the running
#   total, so at step 0 all five fine classes are present (150 images each: 750 per super-class instead
#   of 300, 15k images instead of 6k), at step 1 all five again, at step 2 four of them; only the final
#   step has the three stated fine classes. The fine classes of the final step were all seen before it, which
#   may explain why Table 5 finds almost no shift for sss (all metrics ≈ 1.00) and why many methods reach
#   the oracle there. Our sampler takes the reading as an option (`subpopulation_reading`, default
#   `"code"`, which is how the printed numbers were produced).
