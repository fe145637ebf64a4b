# %% [markdown]
# # ssl_protocols — Figure 3: are the protocols' rankings robust to the kind of domain shift?
#
# **Paper.** Marks, Knott et al., *A closer look at benchmarking self-supervised pre-training with
# image classification*. Figure 3 shows, for each out-of-domain (OOD) protocol (kNN, LP, FT), the
# Spearman correlation across the 26 models between each in-domain (ImageNet) protocol and the OOD
# accuracy "averaged over domain shift grouped datasets". The groups come from Table S.6: **Coarse**
# (Pascal VOC, Caltech-256, iNat-mini Family), **Fine** (CUB, iNat-mini Genus, Species), **Category**
# (Caltech-256, CUB, iNat-mini Family) and **Style** (five ImageNet-D domains).
#
# **What the text claims (Sec. 4.2).** "No notable difference between fine-grained and coarse-grained
# datasets but a significantly lower correlation for style-shift datasets." For OOD kNN, "the
# correlation coefficient for categorical shift (kNN r = 0.96, LP r = 0.95) is notably higher than the
# equivalent for fine-tuning (r = 0.62)"; few-shot fine-tuning correlates slightly more with OOD LP than
# with OOD kNN; ID FT predicts OOD FT less well under category (r = 0.73) and style (r = 0.61) shift,
# and "in-domain probing … and few-shot fine-tuning … are better correlated to OOD FT across all types
# of domain shifts".
#
# **What the text prints.** Tables S.2/S.3 print no iNaturalist accuracies, so every group but Style
# loses one or two of its three datasets; the ImageNet-D block (Style) stops after 10 of the 26 models,
# all ResNet-50. No cell of Fig. 3 can therefore be recomputed as printed; this notebook recomputes each
# cell from the printed part of its group and says how far that goes.

# %% tags=["parameters"]
output_dir: str = "figures/ssl_protocols"
metric: str = "top1"
normalised: bool = True
aggregate: str = "mean_accuracy"
study_params: str = "params/mini/ssl_protocols/study.yaml"
results_dir: str = "results"

# %%
import pandas as pd

from lib.audit import audit_paper
from lib.claims import ledger
from lib.plotting import save_figure, set_style
from lib.ssl_protocols.accuracies import published_accuracies
from lib.ssl_protocols.claims import claims_for, format_ledger
from lib.ssl_protocols.shift_groups import (
    draw_group_panels,
    figure03_estimates,
    group_correlations,
    reading,
    shift_groups,
)

set_style()
pd.set_option("display.width", 160)
pd.set_option("display.max_columns", 20)
pd.set_option("display.max_colwidth", 60)

# %% [markdown]
# ## 1. The paper's numbers
# Table S.6's groups, and which of their datasets Tables S.2/S.3 print.

# %%
groups = pd.DataFrame(
    [{"group": g.name, "datasets (Table S.6)": ", ".join(g.datasets), "printed in S.2/S.3": ", ".join(g.printed),
      "not printed": ", ".join(g.missing)} for g in shift_groups().values()]
)
groups

# %% [markdown]
# ## 2. The figure, recomputed from the printed part of each group
# Reading used (parameters): normalised kNN^N / LP^BN columns as the main text states (Sec. 3), and the
# OOD accuracy averaged over a group's datasets before correlating (`mean_accuracy`, the literal reading
# of "averaged over domain shift grouped datasets"). `mean_correlation` (correlate per dataset, then
# average) is the other plausible reading. Each cell carries its 95 % Fisher-z interval at its own n.

# %%
how = reading(normalised=normalised, aggregate=aggregate)
accuracies = published_accuracies(metric)
cells = group_correlations(accuracies, how)
print(how.describe())
cells[["group", "ood_protocol", "id_protocol", "rho", "ci_low", "ci_high", "n_models", "models printed"]].round(3)

# %%
fig = draw_group_panels(cells, f"Fig. 3 recomputed from Tables S.2/S.6 ({metric}; {how.name})")
written = save_figure(fig, cells, output_dir, "figure03")
print("\n".join(str(p.relative_to(p.parents[2])) for p in written))

# %% [markdown]
# ## 3. The quoted values beside their printed-part estimates
# Each quoted value under all four readings (plain or normalised columns × the two averages). The
# Category estimates use Caltech-256 and CUB (iNat Family missing); the Style estimate uses the 9
# ResNet-50 models printed with every ImageNet-D domain (SimCLR lacks Sketch FT).

# %%
estimates = figure03_estimates("top1")  # the quoted values are top-1 (Fig. 3)
estimates.pivot_table(index=["group", "ood_protocol", "id_protocol", "printed"], columns="reading",
                      values="estimate", sort=False).round(3)

# %% [markdown]
# ## 4. Audit
# The rows of `python -m lib audit --paper ssl_protocols` for this figure: all `not_checkable`, with the
# printed-part estimates and the 95 % interval of each quoted value at n = 26 in the note.

# %%
audit = audit_paper("ssl_protocols")
for row in audit[audit["artefact"] == "figure03"].itertuples():
    print(f"{row.quantity}: printed {row.printed} -> {row.status}\n  {row.note}\n")

# %% [markdown]
# ## 5. Claims resting on this figure

# %%
print(format_ledger(ledger(claims_for("figure03"))))

# %% [markdown]
# ## 6. Verdict
# - **The Category values.** From Caltech-256 and CUB alone the OOD-kNN row gives ID kNN 0.96, ID LP
#   0.94 and ID FT 0.58 (quoted 0.96, 0.95, 0.62), so the pattern "probing ≫ fine-tuning" is reproduced
#   and significant at n = 26; the exact values need iNat Family. ID FT vs OOD FT comes out at 0.60
#   (mean accuracy) or 0.67 (mean correlation) against the quoted 0.73.
# - **Categorical shifts.** On the printed groups, ID probing and few-shot fine-tuning predict OOD FT
#   better than ID FT in every group, and the few-shot protocols correlate more with OOD LP than with
#   OOD kNN, as the text says.
# - **Fine vs coarse.** Not significant after correcting for the 15 cells under one averaging reading,
#   one cell (ID FT-1 % vs OOD FT, 0.97 vs 0.78) significant under the other; the Fine group is CUB only.
# - **Style.** Not checkable: only 10 ResNet-50 models are printed. On them the style correlations are
#   lower for the probing rows, but ID FT is the *best* predictor of OOD FT (0.98, tied with FT-10 %),
#   the opposite of the text; the one quoted style pair (0.73 vs 0.61 at n = 26) is itself not a significant difference
#   (p = 0.50), so "significantly lower" is not supported by the text's own numbers.

# %% [markdown]
# ## Our run
# The miniature protocol study (`lib.ssl_protocols.study`): at `tiny` and `mini` a zoo of small models
# pre-trained on the digits with different objectives (supervised, SimCLR, rotation, masked
# reconstruction, none), every protocol of the paper run on the in-domain digits and on shifted or
# re-labelled domains; at `full` the paper's 26 checkpoints and datasets (settings: the file the
# `study_params` parameter names).
# Here: the ID-vs-OOD correlations per shift group of Fig. 3. The figure `figure03_ours` draws the paper's numbers
# ("paper: …") and ours ("ours (<tier>, <n> models): …") with one function
# (`lib.ssl_protocols.rho_panels.draw_rho_rows`, which also draws the redraw above), the paper's row above ours, on
# one diverging colour scale, Spearman ρ from −1 to 1 (a diverging map because our small zoo gives negative ρ); its
# CSV holds both in the one results schema (`source` paper/ours). Drawn alike: the paper's protocol-major layout,
# three panels by OOD protocol (kNN | LP | FT), ID protocols as rows, groups as columns with a white rule between
# the granularity groups and the groups of shift, a black box where the ID and the OOD protocol match, and each
# group's OOD accuracy averaged over its datasets before ranking. Our groups stand under the paper's in its order:
# **granularity** (digits_parity, the digits re-labelled even / odd, 2 classes: a coarser label set of the in-domain
# images) under Coarse and Fine, which in the paper are two groups of datasets with coarser and finer classes, so
# ours is one column where the paper has two; **categorical** (photos, 16-way crops of scikit-image photos, no class
# shared with the digits) under Category; **style** (digits_inverted, digits_rotated: the digit classes in another
# style) under Style. The mapping is also written under the figure. The paper's groups overlap (Caltech-256 and CUB
# are in Category too), Coarse, Fine and Category lose their iNaturalist part (the `*` columns) and Style is printed
# for 10 of the 26 models; ours are disjoint and complete. At mini ours ranks 9 models (four pre-training objectives
# and an untrained one), the paper up to 26.
# The finding below is computed from the run, whatever it shows: the quantity behind the paper's claim, a
# 95 % interval (a seeded bootstrap over models, or a t-interval), and the verdict judged by that interval;
# with a handful of models every rank correlation is coarse.
#
# **Reading ours (at `mini`; the committed figures' run, an AMD EPYC).** The finding compares the probing
# protocols with ID FT on average over the OOD protocols. Sec. 4.2 also says that probing and few-shot
# fine-tuning predict *OOD fine-tuning* better than ID FT does, in every group of shift, and ours shows the
# opposite: in the OOD FT panel, ID FT is the best predictor in every group (ρ = 0.82 categorical, 0.92
# granularity, 0.90 style), ahead of FT-1 % and FT-10 % (0.54–0.74) and far ahead of kNN and LP (0.02–0.23). With
# 9 models each ρ is coarse and the ledger does not judge that sentence on our run (`not_checkable`), but the
# finding's verdict is no support for it.

# %%
from lib.findings import report
from lib.ssl_protocols.ours import our_panel, run_study

settings, ours = run_study(study_params, results_dir)
our_data, our_fig, findings = our_panel("figure03", settings, ours, metric)
save_figure(our_fig, our_data, output_dir, "figure03_ours")
print(f"{settings.source} study, {ours['model'].nunique()} models, one thread per run.")
print(report(findings))
