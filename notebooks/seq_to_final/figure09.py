# %% [markdown]
# # seq_to_final — Figure 9: the joint model's accuracy against its adjacent regularisation
#
# **Paper.** Ji, Alaa and Sontag, *Seq-to-Final: a benchmark for tuning from sequential distributions
# to a final time point*.
#
# **Caption.** "Validation accuracy at the final time step vs regularization on the difference between
# parameters at adjacent time steps in a joint model. This was from the joint model with 4 residual blocks
# trained on the sequence with rotations, corruptions, and then label flips. No adjacent regularization is
# plotted at 0.001 on the x-axis."
#
# **Question.** Does the joint model move from ERM on the final step (λ_adj = 0) to ERM on all steps
# (λ_adj → ∞), and is it best in between?
#
# **What the text says (App. F).** "When there is no adjacent regularization (λ_adj = 0), all time steps
# can have completely different models [...] so the joint model at the final time step would perform the
# same as ERM on data from just the final time step (ERM final). When there is very high adjacent
# regularization (λ_adj → ∞), all the time steps are forced to have the same parameters, so this would be
# equivalent to [...] ERM on data from all distributions (ERM all). Figure 9 shows the validation accuracy
# of the joint model indeed traverses from the validation accuracy of ERM final to ERM all. Between the two
# extremes, the validation accuracy is higher at intermediate levels of adjacent regularization."
#
# The paper prints no numbers for this figure: it is drawn from our run alone (`ours_only`).

# %% tags=["parameters"]
output_dir: str = "figures/seq_to_final"
geometry_params: str = "params/mini/seq_to_final/geometry.yaml"
results_dir: str = "results"

# %%
import pandas as pd

from lib.plotting import save_figure, set_style
from lib.seq_to_final.geometry import read_runs, regularisation_curve, regularisation_findings
from lib.seq_to_final.geometry_figures import regularisation_figure

set_style()
pd.set_option("display.width", 200)

# %% [markdown]
# ## 1. Our run
# The "regularisation" runs of `lib.seq_to_final.geometry` (settings: the file `geometry_params` names:
# the sequence, architecture and λ_adj grid; at mini RCL on the digits at 8 px with Conv-1 in place of
# Res-4, three seeds). At each λ_adj the joint model (a separate model per step, trained jointly, the
# final step's loss weighted 3) is fitted alone and its best-epoch validation accuracy on the final step
# is drawn; ERM final and ERM all are the baseline and ERM on all steps, selected on the same validation
# split. Line: the mean over the seeds; band: their range; dashed: the references' means.
#
# **Differences from the paper's figure.**
# - The λ_adj grid stops at 1000 at mini (0, .01, …, 1000); the official plotting script goes on to 1e6.
#   The "very high regularisation" finding below is therefore judged at λ_adj = 1000.
# - The validation split of the final step holds 20 images at mini (20 % of 100), so every accuracy moves in
#   steps of .05; the paper's is 20 % of 4,000 CIFAR-10 images.
# - Conv-1 on 8 px digits (RCL) for the paper's Res-4 on CIFAR-10; the mean of three seeds with their range,
#   where the paper draws one run.

# %%
runs = read_runs(geometry_params, results_dir)
fig, data = regularisation_figure(runs)
save_figure(fig, data, output_dir, "figure09")
regularisation_curve(runs).groupby(["method", "lambda_adj"], dropna=False)["accuracy"].agg(["mean", "min", "max"]).round(3)

# %% [markdown]
# ## 2. Findings
# Per seed, then a 95 % t-interval over the seeds, judged by that interval: the two extremes against their
# references (the signed difference, supported when its interval lies within ±.05, our reading of "performs the
# same"; contradicted when it lies wholly outside), and the best intermediate λ_adj against the better of the
# two extremes.

# %%
print(regularisation_findings(runs))

# %% [markdown]
# ## 3. What a toy can and cannot test
# - The two extremes are properties of the objective (λ_adj = 0 decouples the steps; a huge λ_adj ties
#   them), so a toy can test them, up to the optimiser: with Adam and few epochs a very large penalty can
#   also slow training, and the joint model's final loss weight (3) differs from ERM all's equal weights.
# - Whether an intermediate λ_adj helps depends on how related the steps are; on the digits with a label
#   flip at the final step the historical data may help less than on CIFAR-10.
# - The paper's Res-4 is replaced by Conv-1 at mini (Res-1 costs about 12 times Conv-1 per batch).
#
# **Reading ours (at `mini`).** The curve starts above ERM final: JM at λ_adj = 0 lies .22 above it (0.78
# against 0.57; [.03, .41]: not distinguishable by our ±.05 reading, the interval reaching below .05). It stays
# flat up to λ_adj = 1 (0.75 to 0.78) and then falls, with no intermediate peak: the best intermediate λ_adj is
# no better than the best extreme (difference 0 in every seed). At λ_adj = 1000 the joint model meets ERM all on
# average (0.20 against 0.20; 0.22 at λ_adj = 100), but the seeds spread widely (0.05 to 0.30; the difference's
# interval [−.37, .37]), so this is not distinguishable either. These are validation accuracies of the geometry
# study's own runs (at the tables' study's sizes and protocol, but separate runs), not the test accuracies of
# Table 9's study.
