# %% [markdown]
# # seq_to_final — Figure 13: interpolation paths, three sub-population shifts (sss)
#
# **Paper.** Ji, Alaa and Sontag, *Seq-to-Final: a benchmark for tuning from sequential distributions
# to a final time point*.
#
# **Caption.** "Change in accuracy when linearly interpolating model weights from penultimate to final time step in the sequence with 3 sub-population shifts."
#
# **Question.** With little shift between the last two steps, are the paths flat?
#
# **What the text says (App. G.1).** "Flat loss from initialization to final for sequences with little
# shift: For the sequence of red recolorings and the sequence of sub-population shifts, Figures 12 and 13
# show flat linear interpolation paths for many methods."
#
# The paper prints no numbers for this figure: it is drawn from our run alone (`ours_only`), with the
# text's statements beside ours.

# %% tags=["parameters"]
output_dir: str = "figures/seq_to_final"
geometry_params: str = "params/mini/seq_to_final/geometry.yaml"
results_dir: str = "results"
panels: list[str] = ["sss Conv-1"]

# %%
import pandas as pd

from lib.plotting import save_figure, set_style
from lib.seq_to_final.geometry import read_runs
from lib.seq_to_final.geometry_figures import path_figure
from lib.seq_to_final.path_readings import path_findings, profile_table

set_style()
pd.set_option("display.width", 200)

# %% [markdown]
# ## 1. Our run
# The paths are made and drawn as in Figure 1 (its notebook says how: each method's last two models,
# the code's BatchNorm treatment solid, the mean over the seeds with their range as a band, the statistics
# re-estimated at every s dashed); here on the
# sequence and architectures of `panels`.
#
# Below the figure, the shape of each path:
# start, end, rise, dip, largest change along the path, last jump and its share of the rise, and barrier
# (defined in Figure 1's notebook), mean and standard deviation over the seeds, and in how many seeds the
# path is unchanged along s (w_T = w_(T−1)).
#
# **Differences from the paper's figure** (besides Figure 1's: Conv-1 on 8 px digits, six of the paper's
# methods, a separate run from the tables', the findings on the code's BatchNorm treatment, whose last point can
# jump with the switch of BatchNorm statistics: the dashed lines re-estimate them): the paper draws Conv-4,
# Dense-4 and Res-4 on sss with 20 super-classes (chance .05); ours Conv-1 alone on two super-classes (chance
# .5).

# %%
runs = read_runs(geometry_params, results_dir)
fig, data = path_figure(runs, panels)
save_figure(fig, data, output_dir, "figure13")
profile_table(runs, panels)

# %% [markdown]
# ## 2. Findings
# "Flat paths for many methods", judged for each method on the largest |acc(s) − acc(0)| along the path
# (< .05: our reading of "flat"), with a 95 % t-interval over the seeds. A path that is unchanged along s
# is flat because the final update returned its start model (fine-tuning whose best epoch is epoch 0), not
# because of the loss landscape: such seeds are left out (the label counts them), and a method with fewer
# than two seeds left has no interval (`not checkable`).

# %%
print(path_findings(runs, "figure13", panels))

# %% [markdown]
# ## 3. What a toy can and cannot test
# - As for Figure 1: a miniature shows whether the same kinds of shapes appear, not the paper's curves.
# - Our sub-population stand-in has two super-classes (digits 0-4 and 5-9) whose digits enter in a fixed
#   order, not CIFAR-100's 20 super-classes; a binary task starts far above chance, which makes flat paths
#   easier to see.
