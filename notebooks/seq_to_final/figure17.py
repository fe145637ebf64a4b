# %% [markdown]
# # seq_to_final — Figure 17: SVCCA similarity of each layer to the oracle over time (Conv-4, CLR)
#
# **Paper.** Ji, Alaa and Sontag, *Seq-to-Final: a benchmark for tuning from sequential distributions
# to a final time point*.
#
# **Caption.** "Visualization of Conv-4 models over time for the corruption, label, and rotation (CLR) shift sequence created by comparing the outputs from each layer to the oracle outputs via canonical correlation analysis (CCA). x-axis is mean of CCA coefficients explaining 50% of variance when comparing model to final oracle. y-axis is mean explaining 90%. Models closer to (1, 1) have outputs that are more similar to the oracle. The subplot for the entire model concatenates outputs from all layers before running CCA."
#
# **Question.** Do the methods' layer outputs on the final test images become more like the oracle's over the steps?
#
# **What the text says (App. G.2).** "The trajectories do show some progression towards the oracle at
# (1, 1). However, the methods still cannot be distinguished clearly, as many of them end up near the
# coordinate for performing ERM only on the limited final data. It seems like this visualization is also
# limited by the oracle being too arbitrary as a reference point."
#
# The paper prints no numbers for this figure: it is drawn from our run alone (`ours_only`).

# %% tags=["parameters"]
output_dir: str = "figures/seq_to_final"
geometry_params: str = "params/mini/seq_to_final/geometry.yaml"
results_dir: str = "results"

# %%
import pandas as pd

from lib.plotting import save_figure, set_style
from lib.seq_to_final.geometry import svcca_findings, read_runs
from lib.seq_to_final.geometry_figures import trajectory_figure
from lib.seq_to_final.path_readings import svcca_progress_findings

set_style()
pd.set_option("display.width", 200)

# %% [markdown]
# ## 1. Our run
# The path run of `lib.seq_to_final.geometry` on the settings' `geometry_sequence` and
# `geometry_architecture` (at mini: CLR on the digits at 8 px, Conv-1, three seeds; the settings file says
# what is scaled down).
# The same models as Figure 16. Each layer's outputs on the final step's test images (the head's before the
# softmax) are compared with the oracle's by SVCCA (`lib.metrics.svcca`): the top singular directions
# that hold 50 % (x) and 90 % (y) of the singular-value spectrum, as the official `get_singular_vecs`
# counts it, then the mean canonical correlation. The "entire model" concatenates all layers' outputs, as
# the caption says and as this tier runs (`svcca_entire: concatenated`; the official code averages the layers
# instead, the option `layer_mean`). Points: the mean over the
# seeds. Panels in the paper's order (input conv, the block, output fc, entire model), on one square range
# for every panel, from the lowest coordinate (rounded down to .1) to the oracle's (1, 1).
#
# **Differences from the paper's figure.** Conv-1 on 8 px digits (CLR) for the paper's Conv-4 on CIFAR-10
# (the paper's "second block" is our only block); 300 test images for the paper's 5,000; FT, LP-FT, SFT
# and JM (no side-tuned models); the mean of three seeds, where the paper draws one run.

# %%
runs = read_runs(geometry_params, results_dir)
fig, data = trajectory_figure(runs, "svcca")
save_figure(fig, data, output_dir, "figure17")
data[data["layer"] == "entire model"].round(3)

# %% [markdown]
# ## 2. Findings
# The text's statements, per seed and then as a 95 % t-interval over the seeds, judged by that interval.
# First "some progression towards the oracle at (1, 1), particularly for the fully connected layer", on
# every layer: the change of the distance to (1, 1) from the first step's model to the last's (< 0:
# closer). The output fc (head) is the text's named case.

# %%
print(svcca_progress_findings(runs))

# %% [markdown]
# Then on the entire model's 90 % coordinate alone (the y axis): the same progression, and "many of them
# end up near the coordinate for performing ERM only on the limited final data" (.05 is our reading of
# "near").

# %%
print(svcca_findings(runs))

# %% [markdown]
# ## 3. What a toy can and cannot test
# - With 300 test images (mini) and up to 512 units per layer, the 90 % level keeps many directions
#   relative to the images, which inflates canonical correlations; the paper had 5,000 images. At mini the
#   architecture is Conv-1 for the paper's Conv-4.
