# %% [markdown]
# # fm_perturbations — Table 2: ImageNet accuracy under nine common perturbations
#
# **Paper.** Liu, Jiang, Hong, Gong, *Robustness of vision foundation models to common perturbations*.
#
# **Question.** How much does each of the nine perturbations lower the accuracy of two downstream
# classifiers on ImageNet — zero-shot classification with CLIP ViT-L/14 and a linear probe on DINO v2
# ViT-g/14 — and is the largest drop where the text says it is (Defocus blurring, the perturbation with
# the highest DivergenceRadius in Fig. 4)?
#
# **Caption.** "ACC and average ACC_p of ImageNet's testing images for two downstream classifiers.
# Zero-shot classification is based on the CLIP ViT-L/14 foundation model and linear-probe
# classification is based on the DINO v2 ViT-g/14 foundation model."

# %% tags=["parameters"]
output_dir: str = "figures/fm_perturbations"
study_params: str = "params/mini/fm_perturbations/study.yaml"
results_dir: str = "results"

# %%
import matplotlib.pyplot as plt
import pandas as pd

from lib.audit import audit_paper
from lib.claims import ledger
from lib.fm_perturbations.claims import claims_for, format_ledger
from lib.fm_perturbations.figures import accuracy_frame, draw_accuracy_table
from lib.plotting import save_figure, set_style

set_style()
pd.set_option("display.width", 200)

# %% [markdown]
# ## 1. The table as printed
# ACC_p in percent, the drop (printed with ↓) in percentage points; ACC is 68.4 (zero-shot) and 86.6
# (linear probe).

# %%
frame = accuracy_frame("table02")
frame.pivot(index="perturbation", columns="model", values="cell").reindex(frame["perturbation"].unique())

# %% [markdown]
# ## 2. A rendering of the table
# Colour: the printed drop; text: the printed cell.

# %%
fig, data = draw_accuracy_table("table02")
save_figure(fig, data, output_dir, "table02")
plt.show()

# %% [markdown]
# ## 3. Audit
# Each drop against ACC − ACC_p, the drops the text quotes, and Sec. 5.2's "largest ACC_p drop" statement.

# %%
audit = audit_paper("fm_perturbations")
rows = audit[audit["artefact"] == "table02"]
print(f"{len(rows)} rows: " + ", ".join(f"{k} {v}" for k, v in sorted(rows["status"].value_counts().items())))
for row in rows.itertuples():
    print(f"[{row.status}] {row.quantity}: printed {row.printed}, recomputed {row.recomputed:.1f}"
          + (f"\n    {row.note}" if row.status != "ok" or "quoted" in row.quantity else ""))

# %% [markdown]
# ## 4. Claims resting on this table

# %%
print(format_ledger(ledger(claims_for("table02"))))

# %% [markdown]
# ## 5. Verdict
#
# - **Arithmetic:** all 18 drops equal ACC − ACC_p exactly; every perturbation lowers accuracy.
# - **Quote:** "glass blurring reduces zero-shot ImageNet accuracy by 9.4%" is Table 2's largest drop,
#   in percentage points (13.7 % relative).
# - **Mismatch:** Sec. 5.2 says Defocus blurring has the largest ACC_p drop in Table 2. It does for the
#   linear probe (4.4) but not for zero-shot, where Glass blurring (9.4) and Defocus (8.3) differ by
#   1.1 points. Whether Defocus also has the highest radius (Fig. 4) needs our run.

# %% [markdown]
# ## Our run
# The perturbation study (`lib.fm_perturbations.study`, settings: the file `study_params` names). At
# `tiny` and `mini`: small models trained here on embedded images (a tiny CLIP trained contrastively,
# carrying the zero-shot head; a tiny supervised ViT, carrying the linear probe trained on clean
# embeddings), the nine perturbations at m equally spaced values, on the study's
# first dataset, which stands in for ImageNet (at `mini` the
# scikit-learn digits); at `full` the paper's models and ImageNet.
# ACC_p is the share of an image's perturbed versions classified correctly, averaged over images (Sec. 5.1).
# The figure `table02_ours` puts the printed table (left) and ours (right) in one image, drawn by the
# function that draws the printed table above, in its row and column order; its CSV holds the printed cells
# and ours in the one results schema (`source` paper / ours). Our heads run on the study's tiny_clip
# (zero-shot) and tiny_vit (linear probe); its third model, tiny_resnet, has no head here and serves the
# metric grids (Fig. 4 and the appendix figures).
# The findings below are computed from the run, whatever it shows, each with a 95 % bootstrap interval
# over the test images, and judged by that interval. Our models are tiny and our images are 32-pixel
# grey ones, on which the ImageNet-C parameters (blur radii in pixels) are far harsher than on 224-pixel
# photos: absolute drops are not comparable with the paper's, only the direction and the ordering.

# %%
from lib.fm_perturbations.ours import our_table, run_study

run = run_study(study_params, results_dir)
fig, data, findings = our_table(run, "table02")
save_figure(fig, data, output_dir, "table02_ours")
drops = data[data["metric"] == "drop"].groupby("source")["value"].agg(["min", "max"])
print("drops (points): " + "; ".join(f"{source} {row['min']:.1f} to {row['max']:.1f}"
                                     for source, row in drops.loc[["paper", "ours"]].iterrows())
      + " (each panel's colour bar runs from 0, or its lowest drop if negative, to its largest drop)")
print(findings)

# %% [markdown]
# **What differs from the paper's table, and why.** Each panel has its own colour scale, from 0 (white, no
# drop) to its largest drop, with the colour bar labelled "drop ACC − ACC_p (points)"; the line above prints
# both ranges. The printed drops are at most 9.4 points (Table 3's, 12.7); where ours are several times larger
# (as at `mini`), one shared scale would leave the printed table almost white, and with one scale per panel the same shade
# means a larger drop in ours: read the colours within a panel (which perturbation hurts most), the numbers
# across panels. The rows, columns, their order and the
# cell format (ACC_p with its drop) are the paper's; our stand-in dataset, models and image size are not
# (see above), so absolute drops do not compare, only the ordering and the direction.
#
# **Reading ours (at `mini`).** The direction holds and the order does not: every perturbation lowers both heads'
# accuracy on the digits (zero-shot drops 1.2 to 69.8 points, linear-probe 2.3 to 46.9), but Contrast adjustment
# is the worst for both heads, and Glass blurring, the paper's worst zero-shot perturbation, is among the
# mildest for ours. Our linear probe on the tiny ViT reaches only 54 % clean, and under Contrast and Fog it
# falls to chance (7 % and 9 %, against 10 % for ten digits), so its drops are capped by its clean accuracy.
