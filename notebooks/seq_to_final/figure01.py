# %% [markdown]
# # seq_to_final — Figure 1: linear interpolation paths at the last step (CLR and RCL)
#
# **Paper.** Ji, Alaa and Sontag, *Seq-to-Final: a benchmark for tuning from sequential distributions
# to a final time point*.
#
# **Caption.** "Linear interpolation paths from initialization to final model at last step. Top right: Rotation, corruption, and label flip sequence. Other plots: Corruption, label flip, and rotation sequence. Top: 4-block convolutional networks. Bottom left: 4-block dense network. Bottom right: 4-block residual network."
#
# **Question.** Does a method's initialisation at the final step already sit in a good loss basin (a flat or steadily rising path), or must the final update cross a performance barrier?
#
# **What the text says (Sec. 4.1).** The paths are read as "good initialization with little tuning"
# (starts close to the optimum, fairly flat), "change of loss basin" (decreases, then increases) or
# "sharp local minimum" (rises sharply near the final weights). On Figure 1: "Smooth sigmoid shape for
# best-performing methods when final step is label flip"; "Good initialization followed by steady
# increase for joint model variants"; "High variability across different model architectures for some
# methods", e.g. SFT: steady rise for ConvNets, a barrier of 0.1 accuracy for DenseNets, flat then a sharp
# rise for ResNets.
#
# The paper prints no numbers for this figure: it is drawn from our run alone (`ours_only`), with the
# text's statements beside ours.

# %% tags=["parameters"]
output_dir: str = "figures/seq_to_final"
geometry_params: str = "params/mini/seq_to_final/geometry.yaml"
results_dir: str = "results"
panels: list[str] = ["CLR Conv-1", "RCL Conv-1"]

# %%
import pandas as pd

from lib.plotting import save_figure, set_style
from lib.seq_to_final.geometry import path_findings, read_runs, shape_table
from lib.seq_to_final.geometry_figures import path_figure

set_style()
pd.set_option("display.width", 200)

# %% [markdown]
# ## 1. Our run
# The analysis runs of `lib.seq_to_final.geometry` (settings: the file `geometry_params` names; at mini:
# scikit-learn's digits at 8 px standing in for CIFAR, Conv-1, three seeds, a shortened protocol; the
# settings file says what is scaled down). For each method its last two models w_(T−1) and w_T: FT = ERM
# on the historical steps, then fine-tuned on the final step; SFT = sequential fine-tuning without
# learning-rate decay (its model after step T − 1, then after step T); JM = the joint model's step models
# T − 1 and T. The y-axis is the final step's test accuracy of (1 − s)·w_(T−1) + s·w_T, BatchNorm as the
# official code treats it (for 0 < s < 1 its parameters and statistics stay at w_(T−1)'s, so the last
# point can jump). Lines: the mean over the seeds; bands: their range.
#
# Below the figure, the shape of each path:
# accuracy at s = 0 (start) and s = 1 (end), the rise end − start, the dip (how far the path
# falls below its start: the text's "decrease and then increase"), the last jump (the end's accuracy less
# the point before it: the text's "sharp local minimum"; under the code's BatchNorm treatment part of it
# is the switch to the final model's BatchNorm statistics at s = 1) and the barrier (the largest drop
# below the straight line between the endpoints). Mean and standard deviation over the seeds.

# %%
runs = read_runs(geometry_params, results_dir)
fig, data = path_figure(runs, panels)
save_figure(fig, data, output_dir, "figure01")
shape_table(runs, panels)

# %% [markdown]
# ## 2. Findings
# Each statement of the text that this figure can test, measured on every panel, with a 95 % t-interval
# over the seeds and judged by that interval (the thresholds, .02 for "steady" and .05 for "flat",
# are our reading of the text's words; .02 is the margin the paper's own captions use).

# %%
print(path_findings(runs, "figure01", panels))

# %% [markdown]
# ## 3. What a toy can and cannot test
# - The shape of a path depends on the architecture, the data and the protocol; a miniature on digits
#   with one grid point and eight epochs can show whether the same kinds of shapes appear, not the paper's
#   curves. The tier is in the settings file; at `tiny` the numbers only exercise the code.
# - The paper's panels are Conv-4, Dense-4 and Res-4; at mini only Conv-1 runs (Dense-1 and Res-1 cost
#   about 12 times as much per batch), so the architecture-variability statement is not tested below the
#   full tier, and neither is the ResNet "flat plateau" reading.
# - One run per seed: the bands show how much a path moves between seeds (the paper draws one seed).
