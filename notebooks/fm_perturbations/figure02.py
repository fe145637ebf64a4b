# %% [markdown]
# # fm_perturbations — Figure 2: the minimum enclosing ball of three embedding vectors
#
# **Paper.** Liu, Jiang, Hong, Gong, *Robustness of vision foundation models to common perturbations*.
#
# **Question.** What does DivergenceRadius measure? It is the radius of the smallest ball enclosing the
# embeddings of an image's perturbed versions (Eq. 10; the clean image, k = ⊥, is one of them). How does
# it relate to the cosine and Euclidean metrics on the same points?
#
# **Caption.** "An example to illustrate the minimum enclosing ball. The red circle is the minimum
# enclosing ball of the three embedding vectors."
#
# The text gives no coordinates: the three unit vectors here (35°, 60°, 100°) are our choice
# (`lib.fm_perturbations.examples.FIGURE02_ANGLES`). Drawn from our metric code: the ball by Welzl's
# algorithm (`miniball`), the radius checked by an independent dual-QP solver in the tests.

# %% tags=["parameters"]
output_dir: str = "figures/fm_perturbations"

# %%
import matplotlib.pyplot as plt

from lib.fm_perturbations.examples import figure02_embeddings
from lib.fm_perturbations.figures import draw_figure02
from lib.fm_perturbations.metrics import divergence_radius
from lib.plotting import save_figure, set_style

set_style()

# %% [markdown]
# ## 1. The example, drawn from our metric code

# %%
fig, data = draw_figure02()
save_figure(fig, data, output_dir, "figure02")
plt.show()
data.round(4)

# %% [markdown]
# ## 2. Two solvers, one radius
# Welzl's algorithm (exact) and the dual quadratic program on the Gram matrix agree.

# %%
points = figure02_embeddings()
print(f"Welzl (miniball): {divergence_radius(points, solver='miniball'):.6f}")
print(f"dual QP (scipy):  {divergence_radius(points, solver='qp'):.6f}")

# %% [markdown]
# ## 3. Verdict
#
# - Fig. 2 prints no number, so there is nothing to audit; the drawing shows what Eq. 10 computes.
# - Here two of the three vectors (35° and 100°) span the ball, so R_dr equals R_ed (half their
#   distance); with an acute triangle of embeddings, all three would touch the ball and R_dr
#   would exceed R_ed (by at most the factor √(2(n−1)/n) of Jung's theorem, tested in
#   `tests/fm_perturbations`).
