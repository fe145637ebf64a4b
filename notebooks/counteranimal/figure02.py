# %% [markdown]
# # counteranimal — Figure 2: common vs counter accuracy per family
#
# **Question.** Do ImageNet models and high-quality-data CLIPs sit above the CLIP trend of counter against common accuracy,
# i.e. are they more robust than their accuracy predicts?
#
# **Caption.** "The common vs. counter performance (%) for CLIPs, ImageNet models, and more advanced LLMs, i.e., MiniGPT4
# and LLaVA. The size of markers indicates the backbone scales and the color shade of markers indicates the
# pre-train dataset scales. [...] We linearly fit the trends for CLIPs (CLIP, CLIP-DC, and CLIP-DFN jointly)
# and ImageNet models, illustrating their effective robustness."
#
# Redrawn from Tables 3–4 (a, 1 vs 1000) and Tables 13–14 with Table 5's LVLMs (b, 1 vs 20). Marker size is
# the approximate image-encoder size and shade the pre-training set size (our annotations; the paper prints
# neither). Bands: 95 % bootstrap over models.

# %% tags=["parameters"]
output_dir: str = "figures/counteranimal"
study_params: str = "params/mini/counteranimal/study.yaml"
results_dir: str = "results"

# %%
import matplotlib.pyplot as plt
import pandas as pd
from IPython.display import Markdown, display

from lib.claims import ledger
from lib.counteranimal.claims import claims_for
from lib.counteranimal.figures import audit_rows, audit_summary, draw_scatter
from lib.plotting import save_figure, set_style

set_style()
pd.set_option("display.width", 200)
pd.set_option("display.max_columns", 20)
pd.set_option("display.max_colwidth", 90)

# %% [markdown]
# ## 1. The paper's numbers
# Left (a): 1 vs 1000; right (b): 1 vs 20 with the two LVLMs.

# %%
fig, data = draw_scatter("figure02")
save_figure(fig, data, output_dir, "figure02")
plt.show()

# %% [markdown]
# ## 2. Audit
# The figure's numbers are Tables 3, 4, 5, 13 and 14; their audit rows are repeated here (Table 5's CLIP rows
# are 1 vs 1000 numbers, so panel (b) draws Table 13's).

# %%
rows = audit_rows("table03", "table04", "table05", "table13", "table14")
print(audit_summary(rows))
problems = rows[rows["status"] != "ok"]
(problems if len(problems) else rows.head(10))[["artefact", "quantity", "printed", "recomputed", "delta", "status", "note"]].round(3)

# %% [markdown]
# ## 3. Beyond the paper: effective robustness
# Each family's mean residual from the other family's line (counter accuracy above the line's prediction at
# its common accuracy, points), on linear and logit axes, with 95 % bootstrap intervals over models (both
# families resampled, the line refitted). `without LAION400M and ViT/B/32` leaves out the CLIPs that share the
# curation model's data or backbone (Sec. 5.2's exclusion; notes P7).

# %%
from lib.counteranimal.effective_robustness import drop_accuracy_correlation, findings, points

table = findings()
display(table[["setup", "subset", "comparison", "axis", "n_reference", "n_others", "estimate", "low", "high",
               "verdict"]].round(2))
drop_accuracy_correlation(points(("table03", "table04"))).round(2)

# %% [markdown]
# ## 4. Claims resting on Figure 2
# The paper's claims that cite it, judged on the printed numbers (`lib/published/counteranimal/claims.yaml`).

# %%
claims = ledger(claims_for("figure02"))
claims[["claim_id", "section", "verdict", "evidence"]] if len(claims) else Markdown("No claim of the ledger rests on it.")

# %% [markdown]
# ## 5. Verdict
# ImageNet models sit 2.2 points (linear) or 2.5 points (logit) above the CLIP line in 1 vs 1000, with
# bootstrap intervals above zero: the paper's claim survives accuracy on the line. Without the curation model's
# data and backbone it shrinks to 1.3–1.7 points (in 1 vs 20 without them, the linear residual, 1.1 [−0.05, 2.4],
# is not distinguishable from zero), and with unbalanced accuracy it is not distinguishable from zero. The
# high-quality-data CLIPs are not distinguishable from the other CLIPs' line (+0.8 linear [−1.4, 3.4], −0.1
# logit [−1.8, 1.5]): their smaller drops are what their higher accuracy predicts. Of the audit's 16
# mismatches, 15 are Table 5's ViT-L/14 rows printed again, with other digits, in Table 13; one is Table 14's RN50
# drop (15.29 printed, 15.12 from its common and counter accuracies).

# %% [markdown]
# ## Our run
# **The miniature CounterAnimal** (`lib.counteranimal.miniature`): scikit-learn's digits in black ink on ten
# coloured, textured backgrounds named after the paper's (grass, water, snow, ...). In the "pre-training" data
# each class sits on its common background with probability `spurious_correlation` (mini: 0.8), otherwise on
# one of the nine others; the test groups put every held-out digit once on its common background and once on
# its counter background (the common background of another class, rare with this one).
# **The zoo** (`lib.counteranimal.study`; settings: the file `study_params` names): tiny CLIPs pre-trained
# contrastively on image-caption pairs "a photo of the number <name>." at several data sizes (CLIP; at one size
# also with a smaller and a larger image tower, Figure 7's backbone ladder), the same on data with a weaker
# correlation (CLIP-HQ, the analogue of DataComp's and DFN's filtered data), and supervised stand-ins (tiny ViT,
# tiny ResNet) trained with cross-entropy on the same kind of data (the "ImageNet models" analogue); every model
# for several seeds. CLIPs are scored zero-shot through the shared head over the ten digit names with the same prompt (1 vs 10), the supervised models through their logits;
# class-balanced accuracy as in the paper. At `full` the same code evaluates the paper's checkpoints on the
# real dataset.
#
# The figure `figure02_ours` draws both of the paper's panels, (a) 1 vs 1000 and (b) 1 vs 20 with the LVLMs,
# and ours (right, one point per model and seed) with one function (`lib.counteranimal.figures.scatter_panel`),
# all on the same 0–100 % axes; its CSV holds all three (`source` paper / ours, `setup` the candidate set). Each
# finding is computed per seed, with a 95 % t-interval over seeds and the verdict that interval gives.
#
# **What differs from Fig. 2, and why.** Our setup is **1 vs 10**: the miniature has ten digit classes, so every
# model chooses among all ten, a restricted label space like panel (b)'s 1 vs 20 (per class, the 20 labels a
# reference CLIP finds most similar to its images), not (a)'s 1 vs 1000; we draw both paper panels so ours can be read beside either. Ours
# has **no LVLM analogue** (MiniGPT4 and LLaVA in panel (b)): the toy trains no generative vision-language model.
# Marker size is our stand-ins' parameter count and shade their pre-training images (our points are much smaller
# models than any of the paper's), and "ImageNet" in our legend names the supervised stand-ins.
#
# **What the toy cannot test.** The paper's ImageNet models were trained on other data (ImageNet, whose
# backgrounds need not follow LAION's) and are supervised on exactly these classes, while its CLIPs are
# zero-shot on web data. Here both families see the same distribution with the same correlation, so the
# comparison isolates the training objective (contrastive with class-name captions vs cross-entropy), which
# is what Sec. 6 and App. D.4 argue about, not the data. Backbones differ in kind too (the tiny CLIP's image
# tower is a 2-block ViT, 1 or 3 blocks on the ladder; the supervised ViT has 2 blocks, the ResNet one block
# per stage).

# %%
from lib.counteranimal.ours import our_panel, run_study
from lib.findings import report

settings, ours = run_study(study_params, results_dir)
our_data, our_fig, findings = our_panel("figure02", settings, ours)
save_figure(our_fig, our_data, output_dir, "figure02_ours")
print(report(findings))

# %% [markdown]
# ### Verdict on our run
# Every number below is computed from the study's runs at the tier this notebook ran (the tiny tier is a smoke
# test whose models stay near chance; `mini` has 3 seeds), with the verdict its interval gives.

# %%
from lib.counteranimal.ours import our_points, verdict_text

Markdown(verdict_text(our_points(ours), findings))

# %% [markdown]
# Caveats: stand-in architectures and one shared recipe (15 epochs, AdamW at `mini`), not tuned per family. The
# ranking of the families may depend on training length, which this run does not vary (one exploratory run, not
# stored and not reproduced here, had a supervised ViT trained 30 epochs on 2000 images drop 28 points, near the
# CLIPs). The supervised models saturate the common group, where the steep CLIP line is extrapolated.
