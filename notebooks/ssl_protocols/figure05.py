# %% [markdown]
# # ssl_protocols — Figure 5: is the fine-tuning advantage of generative SSL a backbone effect?
#
# **Paper.** Marks, Knott et al., *A closer look at benchmarking self-supervised pre-training with
# image classification*. Figure 5 plots each model's ImageNet fine-tuning accuracy against its linear
# probing accuracy, coloured by family (discriminative / generative) with markers for the backbone, a
# dotted equal-accuracy line and "a linear regression with a 90% confidence interval".
#
# **What the text claims (Sec. 4.4).** "The models with a generative loss (MaskFeat, MAE, BEiT v2, iBOT)
# have a larger performance gap between fine-tuning and linear probing performance on ImageNet than
# discriminative models"; but "ViT backbones are all above the regression line", and DINO and MoCo v3,
# printed with both backbones, move "from below the regression line to above" when switched to a ViT.
# Hence: "differences in linear probing performance between generative and discriminative models can be
# explained through different backbones rather than SSL methods" (also in the abstract and Sec. 5).
#
# **Choices.** The paper does not list its family assignment; here *generative* = the masked-image-
# modelling methods (iBOT, MAE, MaskFeat, BEiT v2, MILAN, EVA, PixMIM; all ViT-B/16). LP is read from the
# normalised column LP^BN, as the main text states for all its LP results (parameter `lp_column`; the plain
# LP is shown as a check). The band is the analytic t-interval of the fitted mean; seaborn's `regplot`,
# the likely original, bootstraps it, which gives a similar band for 26 points.

# %% tags=["parameters"]
output_dir: str = "figures/ssl_protocols"
lp_column: str = "LP_BN"
confidence_level: float = 0.9
study_params: str = "params/mini/ssl_protocols/study.yaml"
results_dir: str = "results"

# %%
import matplotlib.pyplot as plt
import pandas as pd

from lib.claims import ledger
from lib.plotting import save_figure, set_style
from lib.ssl_protocols.accuracies import published_accuracies
from lib.ssl_protocols.claims import claims_for, format_ledger
from lib.ssl_protocols.scatter import backbone_switches, draw_lp_vs_ft, lp_vs_ft

set_style()
pd.set_option("display.width", 160)
pd.set_option("display.max_columns", 20)

# %% [markdown]
# ## 1. The paper's numbers
# Table S.2, ImageNet top-1: LP (from `lp_column`) and FT of the 26 models, the gap FT − LP and each
# model's residual from the regression line.

# %%
accuracies = published_accuracies("top1")
frame, fit = lp_vs_ft(accuracies, lp_column, confidence_level)
print(f"fit: FT = {fit.intercept:.2f} + {fit.slope:.3f} · LP   (n = {fit.n}, residual sd {fit.residual_sd:.2f})")
frame[["model", "family", "LP", "FT", "gap", "residual", "above_line"]].round(2)

# %% [markdown]
# ## 2. The figure, redrawn from Table S.2

# %%
fig, ax = plt.subplots(figsize=(6.4, 5.4))
draw_lp_vs_ft(frame, fit, ax)
ax.set_title(f"ImageNet LP vs FT (Table S.2, top-1), {fit.n} models")
written = save_figure(fig, frame, output_dir, "figure05")
print("\n".join(str(p.relative_to(p.parents[2])) for p in written))

# %% [markdown]
# ## 3. The claims, one by one
# Mean gap and mean residual per family × backbone, the two backbone switches, and the same under the
# other LP column.

# %%
summary = frame.groupby(["family", "backbone"]).agg(models=("model", "count"), mean_gap=("gap", "mean"),
                                                    median_gap=("gap", "median"), mean_residual=("residual", "mean"),
                                                    above_line=("above_line", "sum"))
summary.round(2)

# %%
other = "LP" if lp_column == "LP_BN" else "LP_BN"
switches = backbone_switches(frame).assign(lp_column=lp_column)
other_frame, other_fit = lp_vs_ft(accuracies, other, confidence_level)
switches = pd.concat([switches, backbone_switches(other_frame).assign(lp_column=other)], ignore_index=True)
switches.round(2)

# %% [markdown]
# ## 4. Audit and claims
# The text quotes no number for Fig. 5, so the audit has no row for it. The claims resting on it:

# %%
print(format_ledger(ledger(claims_for("figure05"))))

# %% [markdown]
# ## 5. Verdict
# - **ViTs above the line, backbone switches.** Reproduced under both LP columns: all nine ViT-B/16
#   models lie above the fitted line (residuals +1.7 to +5.3 points with LP^BN), and DINO and MoCo v3
#   cross from about −2.3 (ResNet-50) to about +1.8 (ViT-B/16). With LP^BN two early ResNet-50 models
#   (Jigsaw, rotnet) are also above the line.
# - **Generative models have a larger FT − LP gap.** Only weakly: with LP^BN the four named generative
#   models average 11.9 points against 11.0 for the discriminative ones (medians 9.6 vs 5.1), and iBOT's
#   gap (3.6) is smaller than that of 13 of the 19 discriminative models; the largest gaps belong to
#   early ResNet-50 methods (Jigsaw 39.7, rotnet 31.4). The ledger judges the mean difference by its Welch
#   interval over the 4 and 19 models: +0.9 points [−12.8, +14.6] with LP^BN, not distinguishable from zero.
# - **Backbone rather than family.** Supported as far as the data can separate the two: among ViTs the
#   generative models sit only 1.7 points further above the line than the discriminative ones, against a
#   4.9-point ViT-vs-ResNet difference. Every generative model is a ViT, so only DINO and MoCo v3 separate
#   backbone from family, and the evidence rests on those two pairs.

# %% [markdown]
# ## Our run
# The miniature protocol study (`lib.ssl_protocols.study`): at `tiny` and `mini` a zoo of small models
# pre-trained on the digits with different objectives (supervised, SimCLR, rotation, masked
# reconstruction, none), every protocol of the paper run on the in-domain digits and on shifted or
# re-labelled domains; at `full` the paper's 26 checkpoints and datasets (settings: the file the
# `study_params` parameter names). Each finding below is computed from the run, whatever it shows: the
# quantity behind the paper's claim, a 95 % interval (a seeded bootstrap over models, or a t-interval)
# and the verdict judged by that interval; with a handful of models every rank correlation is coarse.
# Here: in-domain linear probing (LP^BN) against fine-tuning, Fig. 5.

# %%
from lib.findings import report
from lib.ssl_protocols.ours import lp_vs_ft as our_lp_vs_ft
from lib.ssl_protocols.ours import our_panel, run_study

settings, ours = run_study(study_params, results_dir)
our_data, our_fig, findings = our_panel("figure05", settings, ours)
save_figure(our_fig, our_data, output_dir, "figure05_ours")
print(f"{settings.source} study, {ours['model'].nunique()} models, one thread per run.")
print(report(findings))

# %% [markdown]
# **Drawn alike.** `figure05_ours` draws the paper's points (left) and ours (right) with one function, in
# Fig. 5's encoding: colour = family, marker = backbone, dotted equal-accuracy line, least-squares line with
# its 90 % band. Blue is *discriminative* (the paper's contrastive and clustering methods; our supervised,
# SimCLR and rotation objectives). Orange is *generative* (masked image modelling; our masked
# reconstruction). A circle is a ResNet and a triangle a ViT. Its CSV holds both sources.
#
# **What differs, and why.**
# - *Axes.* Both panels share 0–100 % axes, so the paper's 26 points look compressed next to the zoomed
#   redraw above.
# - *Labels.* Points are not labelled: the labels made an unreadable clump. Our points are listed in the table
#   below, the paper's in section 1.
# - *Grey.* Our randomly initialised ResNet (`none`) is grey, a family the paper does not have.
# - *An outlier.* At `mini`, masked-vit-15ep's fine-tuning collapsed to one class (FT at chance, 10 %; see the
#   Table S.2 notebook). It is the orange triangle at the bottom, and it pulls our regression line and the
#   ViT-versus-ResNet finding down. It is kept, not tuned away. Just above it sits simclr-vit-15ep (blue
#   triangle, FT 14.8 %).
# - *Backbones.* Ours are two tiny stand-ins (tiny_resnet, tiny_vit) at 16 × 16 pixels. The backbone
#   comparison rests on 3 ViTs against 6 ResNets.
# - *The finding* reads "above the regression line" as the ViTs' mean residual from the line fitted over every
#   model, minus the other backbones' (on the paper's printed points: +4.9). At `mini` it is −58.4
#   [−83.1, −12.6], contradicted, and the two collapsed ViTs make it so: their residuals are −64 and −60
#   (table below), and they tilt the line until every other model sits above it. The third, supervised-vit-15ep,
#   is above the line too (+7.1), but below every ResNet (+14.0 to +29.3). What the toy shows is that our tiny ViTs
#   fine-tune badly on the digits, not the backbone effect the paper measures on ImageNet.

# %%
our_table, our_fit = our_lp_vs_ft(ours, settings.in_domain)
our_table.assign(gap=our_table["FT"] - our_table["LP"],
                 residual=our_table["FT"] - our_fit.predict(our_table["LP"].to_numpy())).round(1)
