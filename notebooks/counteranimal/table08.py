# %% [markdown]
# # counteranimal — Table 8: MultiColoredMNIST
#
# **Question.** With perfect captions, does contrastive training learn the spurious colour less than supervised training on
# MultiColoredMNIST?
#
# **Caption.** "Comparison of standard supervised learning and contrastive learning on MultiColoredMNIST dataset."
#
# Mean ± sd over an unstated number of runs, per number of classes, invariant correlation p_inv and spurious
# correlation p_spu; Rand and Rev. test sets for classes 0/1, and the rest of the classes.

# %% tags=["parameters"]
output_dir: str = "figures/counteranimal"
multicolored_params: str = "params/mini/counteranimal/multicolored.yaml"
results_dir: str = "results"

# %%
import matplotlib.pyplot as plt
import pandas as pd
from IPython.display import Markdown, display

from lib.claims import ledger
from lib.counteranimal.claims import claims_for
from lib.counteranimal.figures import audit_rows, audit_summary, draw_table08, table08_frame
from lib.counteranimal.multicolored import cell_gaps, cell_means, findings, run_study, spurious_findings
from lib.findings import markdown
from lib.plotting import save_figure, set_style

set_style()
pd.set_option("display.width", 200)
pd.set_option("display.max_columns", 20)
pd.set_option("display.max_colwidth", 90)

# %% [markdown]
# ## 1. The paper's numbers
# Accuracy against the number of classes, error bars the printed sd.

# %%
fig, data = draw_table08()
save_figure(fig, data, output_dir, "table08")
plt.show()

# %% [markdown]
# ## 2. Audit
# Nothing in Table 8 is derived from printed inputs (the per-run accuracies are not printed).

# %%
rows = audit_rows("table08")
print(audit_summary(rows))
problems = rows[rows["status"] != "ok"]
(problems if len(problems) else rows.head(10))[["artefact", "quantity", "printed", "recomputed", "delta", "status", "note"]].round(3)

# %% [markdown]
# ## 3. Claims resting on Table 8
# The paper's claims that cite it, judged on the printed numbers (`lib/published/counteranimal/claims.yaml`).

# %%
claims = ledger(claims_for("table08"))
claims[["claim_id", "section", "verdict", "evidence"]] if len(claims) else Markdown("No claim of the ledger rests on it.")

# %% [markdown]
# ## 4. Our run: MultiColored digits
# **The data** (`lib.counteranimal.multicolored`; settings: the file `multicolored_params` names): scikit-learn's
# 8 × 8 digits 0 … k−1 (mini: k = 2, 3, 5, 10; a stratified half for training, drawn per seed), coloured as we
# read App. D.4: the digit's shape agrees with the label for exactly a fraction p_inv of each digit's images (the
# others relabelled at random, test sets included, so accuracy stays below p_inv as in the paper); in training,
# images labelled 0 / 1 carry their class colour (red / green) for exactly a fraction p_spu and otherwise one
# of the other k−1 colours, images labelled 2 and above a colour uniform over the k (the paper does not say how
# it colours them). Test Rand: every colour uniform (p_spu = 1/k); test Rev.: labels 0 / 1 carry their own colour
# for 10 % and the swapped one (0 green, 1 red) otherwise. The colour is on the strokes, as in ColoredMNIST.
#
# **The methods**, trained on the same data in each run (same MLP encoder, same optimiser and epochs):
# *supervised*, a linear head over the k labels with cross-entropy; *contrastive*, the perfect caption "a photo
# of digit ⟨label⟩ with colour ⟨colour⟩" encoded as the sum of a learned label-token and colour-token embedding
# (Eq. 9's M_c on the one-hot caption), trained with CLIP's symmetric InfoNCE loss over the batch, and
# classified zero-shot by the prompt of the label token alone. Mean ± sd over seeds per cell, as the paper
# prints them, drawn by the same function as the paper's numbers on the same axes (`table08_ours`, top row the
# paper, bottom row ours).
#
# **The findings.** The paper's claim ("both contrastive learning and supervised learning perform similarly across
# different numbers of classes and bias degrees") is judged on the Rev. accuracy of classes 0/1, the colour's
# test: per seed, contrastive minus supervised averaged over the class counts (paired: both methods see the same
# data), with a 95 % t-interval over seeds, against ± `margin` points (3: the printed pairs differ by up to about
# 4 points, and by less than 3 in most). A second check is the design's premise: both methods lean on the colour
# (Rand above Rev.).
#
# **What the toy cannot test.** The paper's Table 8 lists 10,610 to 50,000 MNIST samples; the digits give about 90
# training images per class, a regime where both models can memorise the noisy labels, so the two objectives
# may differ here for reasons (regularisation by in-batch negatives, sample size) that MNIST-scale training
# would remove. The `full` tier runs the same code on MNIST.

# %%
settings, ours = run_study(multicolored_params, results_dir)
cells = cell_means(ours)
tier = ours["tier"].iloc[0]
our_fig, our_data = draw_table08({"paper": table08_frame(), f"ours ({tier}, {len(settings.seeds)} seeds)": cells})
save_figure(our_fig, our_data, output_dir, "table08_ours")
plt.show()

# %%
display(Markdown(markdown(findings(ours, settings.margin))))
display(Markdown(markdown(spurious_findings(ours))))

# %%
cells.pivot_table(index=["p_inv", "p_spu", "classes"], columns=["metric", "train_method"], values="value",
                  sort=False).sort_index(axis=1).round(1)

# %% [markdown]
# Each cell's paired difference, contrastive minus supervised (points), with its 95 % t-interval over seeds.

# %%
gaps = cell_gaps(ours).dropna(subset=["gap"])
gaps.pivot_table(index=["p_inv", "p_spu", "classes"], columns="metric", values=["gap", "low", "high"],
                 sort=False).swaplevel(axis=1).sort_index(axis=1, level=0, sort_remaining=False).round(1)

# %% [markdown]
# ## 5. Verdict
# **The paper's numbers:** contrastive and supervised training lie within 3 points in 61 of 68 printed pairs; the
# exceptions (up to 4.1 points) go both ways. Both lose heavily on the reversed test set when p_spu = 0.9.
#
# **Our run**: the findings above, each claim led by its verdict with the numbers the run at hand measured (the
# tiny tier is a smoke test of 5 epochs). How the committed `mini` run (5 seeds) reads them:
# - **Both methods learn the spurious colour**: Rand minus Rev. accuracy on classes 0/1 is well above zero for
#   both, larger for the supervised models.
# - **"Contrastive and supervised perform similarly"** fails in most bias settings, and always in one direction:
#   averaged over the class counts, contrastive training with perfect captions is not less robust on the Rev.
#   test in any of the four bias settings (two single cells have small negative gaps, −3.7 and −0.9 points, their
#   intervals spanning zero) and is *more* robust than cross-entropy in three of the four (both p_spu 0.9
#   settings, and p_inv 0.75 with p_spu 0.75). The
#   finding's overall line reads "partly supported" because each setting has two parts (not more, not less
#   robust); the claim of similarity needs both, so read that line as the claim contradicted in three of the four
#   settings, its "supported" parts being contrastive training's *larger* robustness. Per cell (tables above), at p_spu 0.9 the Rev. gap is 16–29
#   points with 2–5 classes and about 8 at 10 classes; the supervised MLP scores higher on the rest classes in
#   11 of 12 cells, the contrastive one on Rand in 13 of 16 (all 8 at p_spu 0.9): at about 90 training images per
#   class the two objectives trade fitting the labels
#   against leaning on the colour differently. Whether that survives MNIST-scale data (the paper's regime) is what
#   the `full` tier would tell; the toy does not contradict the paper's MNIST numbers, only their generality.
