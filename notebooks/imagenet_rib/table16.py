# %% [markdown]
# # imagenet_rib — Table 16: WiSE-FT at the default and the best ratio
#
# **Question.** How much better is WiSE-FT (weight-space interpolation between the pretrained and the
# fine-tuned model) at its best interpolation ratio than at the default 0.5, and which ratio is best
# for each model?
#
# **Caption.** "mRI of ViT-B/16 pretrained on various datasets using WiSE-FT with default ratio (0.5)
# and the best ratio"
#
# The paper's Eq. 3 writes W = α · W_pre + (1 − α) · W_FT, so α weights the *pretrained* model (α = 1
# is the pretrained model). Table 16's α = 0.5 column repeats Table 3's WiSE-FT mRIs.

# %% tags=["parameters"]
output_dir: str = "figures/imagenet_rib"
experiments_params: str = "params/mini/imagenet_rib/experiments.yaml"
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
fig, data = draw("table16")
save_figure(fig, data, output_dir, "table16")
plt.show()
values, _ = method_matrix("table16")
values

# %% [markdown]
# ## 2. Re-derivation and audit rows
# The α = 0.5 column against Table 3's WiSE-FT row, and the best α per model.

# %%
rows = audit_rows("table16")
print(audit_summary(rows))
rows.round(3)

# %% [markdown]
# ## 3. Verdict

# %%
display(Markdown(verdict_markdown("table16")))

# %% [markdown]
# ## Our run
# Experiment `wise_alpha` of the file the `experiments_params` parameter names: WiSE-FT of our
# miniature benchmark at every α of its grid (reusing the FT weights of `main`), with the paper's
# convention (Eq. 3: α weights the pretrained model, so α = 0 is FT, drawn dashed, and α = 1 the
# pretrained model, mRI 0). The figure: Table 16's WiSE-FT mRI at α = 0.5 and at each model's best α
# (left; the paper's models) and ours (right; per regime, at α = 0.5 and at the α of our grid with the
# highest mRI averaged over seeds), drawn by one function on one colour scale; the CSV holds both in one
# schema (`source` paper / ours, ours per seed). The best α themselves are printed in section 1.
#
# At the full tier the experiment runs on the paper's models and data (`python -m lib experiment
# --tier full --name <experiment>`, GPU, or `make figures TIER=full`, which computes
# the runs first); this notebook draws them once they are all in the store, and otherwise says how many are.

# %%
from lib.imagenet_rib.ours_experiments import EXPERIMENT_PAIRS, show_experiment_panel

show_experiment_panel("table16", experiments_params, results_dir, output_dir)
display(Markdown(f"**What differs from the paper:** {EXPERIMENT_PAIRS['table16'].difference}."))
