# %% [markdown]
# # fm_perturbations — Figure 1: an example for the worst-robustness property
#
# **Paper.** Liu, Jiang, Hong, Gong, *Robustness of vision foundation models to common perturbations*.
#
# **Question.** When the embeddings of an image's perturbed versions are spread evenly over the sphere
# (they sum to zero, Eq. 4), a robustness metric should reach its worst value, 1. Does it? The text
# says R_cs is 0.75 on Fig. 1's example, so R_cs (and any increasing function of it, Theorem 1) fails
# worst robustness, while DivergenceRadius reaches 1.
#
# **Caption.** "An example for the worst-robustness property."
#
# The figure has no coordinates. **Reading:** three plane unit vectors 120° apart — they sum to zero and
# give a smallest cosine of −0.5, hence the quoted R_cs = 0.75. Drawn from our metric code
# (`lib.fm_perturbations.metrics`): the vectors, their minimum enclosing ball (Welzl, `miniball`), and
# the three metrics.

# %% tags=["parameters"]
output_dir: str = "figures/fm_perturbations"

# %%
import matplotlib.pyplot as plt

from lib.audit import audit_paper
from lib.claims import ledger
from lib.fm_perturbations.claims import claims_for, format_ledger
from lib.fm_perturbations.figures import draw_figure01
from lib.plotting import save_figure, set_style

set_style()

# %% [markdown]
# ## 1. The example, drawn from our metric code

# %%
fig, data = draw_figure01()
save_figure(fig, data, output_dir, "figure01")
plt.show()
data.round(4)

# %% [markdown]
# ## 2. Audit
# The numbers the text quotes for Fig. 1, recomputed on this example.

# %%
audit = audit_paper("fm_perturbations")
rows = audit[audit["artefact"] == "figure01"]
print(f"{len(rows)} rows: " + ", ".join(f"{k} {v}" for k, v in sorted(rows["status"].value_counts().items())))
for row in rows.itertuples():
    print(f"[{row.status}] {row.quantity}: printed {row.printed}, ours {row.recomputed:.4f}\n    {row.note}")

# %% [markdown]
# ## 3. Claims resting on this figure

# %%
print(format_ledger(ledger(claims_for("figure01"))))

# %% [markdown]
# ## 4. Verdict
#
# - The quoted **R_cs = 0.75** is reproduced on three vectors 120° apart; R_ed = √0.75 ≈ 0.866 (Theorem 2),
#   and **DivergenceRadius = 1**: the smallest enclosing ball is the unit circle itself, centred at the origin.
# - R_cs = 1 needs an antipodal pair (cosine −1); evenly spread embeddings without one stay below 1, so
#   the cosine and Euclidean metrics cannot satisfy worst robustness, as Table 1 says.
