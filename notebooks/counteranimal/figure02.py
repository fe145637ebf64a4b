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
# bootstrap intervals above zero: the paper's claim survives accuracy on the line, though the gap is small
# next to the spread of CLIPs. Without the curation model's data and backbone it shrinks to 1.3–1.7 points,
# and with unbalanced accuracy it is not distinguishable from zero. The high-quality-data CLIPs do not sit
# above the other CLIPs' line (0.8 linear, −0.1 logit, intervals straddle zero): their smaller drops are what
# their higher accuracy predicts.

# %% [markdown]
# ## Our run
# **The miniature CounterAnimal** (`lib.counteranimal.miniature`): scikit-learn's digits in black ink on ten
# coloured, textured backgrounds named after the paper's (grass, water, snow, ...). In the "pre-training" data
# each class sits on its common background with probability `spurious_correlation` (mini: 0.8), otherwise on
# one of the nine others; the test groups put every held-out digit once on its common background and once on
# its counter background (the common background of another class, rare with this one).
# **The zoo** (`lib.counteranimal.study`; settings: the file `study_params` names): tiny CLIPs pre-trained
# contrastively on image-caption pairs "a photo of the number <name>." at several data sizes (CLIP), the same
# on data with a weaker correlation (CLIP-HQ, the analogue of DataComp's and DFN's filtered data), and
# supervised stand-ins (tiny ViT, tiny ResNet) trained with cross-entropy on the same kind of data (the
# "ImageNet models" analogue); every model for several seeds. CLIPs are scored zero-shot through the shared
# head over the ten digit names with the same prompt (1 vs 10), the supervised models through their logits;
# class-balanced accuracy as in the paper. At `full` the same code evaluates the paper's checkpoints on the
# real dataset.
#
# The figure `figure02_ours` draws the paper's 1 vs 1000 panel (left) and ours (right, one point per model and
# seed) with one function (`lib.counteranimal.figures.scatter_panel`); its CSV holds both (`source` paper /
# ours). Each finding is computed per seed, with a 95 % t-interval over seeds and the verdict that interval
# gives.
#
# **What the toy cannot test.** The paper's ImageNet models were trained on other data (ImageNet, whose
# backgrounds need not follow LAION's) and are supervised on exactly these classes, while its CLIPs are
# zero-shot on web data. Here both families see the same distribution with the same correlation, so the
# comparison isolates the training objective (contrastive with class-name captions vs cross-entropy), which
# is what Sec. 6 and App. D.4 argue about, not the data. Backbones differ in kind too (the tiny CLIP's image
# tower is a 2-block ViT; the supervised ViT has 2 blocks, the ResNet one block per stage).

# %%
from lib.counteranimal.ours import our_panel, run_study
from lib.findings import report

settings, ours = run_study(study_params, results_dir)
our_data, our_fig, findings = our_panel("figure02", settings, ours)
save_figure(our_fig, our_data, output_dir, "figure02_ours")
print(report(findings))

# %% [markdown]
# ### Verdict on our run
# At `mini` (3 seeds; the tiny tier is a smoke test whose models stay near chance):
# - **The counter group is harder for CLIPs: supported.** The tiny CLIPs drop 22 points on average (95 % interval
#   16.5 to 27.4 over seeds): 65 points at 500 images, 24 at 1000, 6 at 2000, so the drop shrinks as the CLIPs
#   learn the digits (the paper's "accuracy on the line").
# - **The shortcut hurts the supervised models too: supported**, and more: 60 points (48.6 to 71.8). The
#   supervised ViTs reach 97-100 % on the common group but 0.2 % (500 images), 11 % (1000) and 59 % (2000) on
#   the counter group; the ResNet (1000 images) keeps 82 % (drop 17, less than the 1000-image CLIPs' 24).
# - **"ImageNet models are more robust" (smaller drops; not below the CLIP line): contradicted in the toy.** The
#   CLIPs' mean drop is 38 points *smaller* (−50.5 to −26.0), and the supervised models sit 68 points below the
#   CLIP line (−103 to −33; the line is steep, so residuals near 100 % common accuracy are large). With the data
#   held equal, the contrastive objective with class-name captions leans on the background less than
#   cross-entropy does (one ResNet aside), so the paper's finding cannot come from the objective alone here; it
#   fits the paper's own conjecture that LAION's spurious correlations differ from ImageNet's, which the toy
#   does not model (both families see the same correlation).
# - **High-quality (weaker-correlation) data make CLIPs more robust: supported**, +16.5 points above the other
#   CLIPs' line (5.9 to 27.2), where the paper's own DC/DFN numbers give +0.8 points, not distinguishable from 0
#   (Section 3 above). In the toy "high quality" means exactly a weaker spurious correlation, which is what the
#   paper suggests filtering achieves; real filtering need not.
#
# Caveats: stand-in architectures and one shared recipe (20 epochs, AdamW), not tuned per family. The ranking of
# the families depends on training length: at 10 epochs the same zoo gave the same verdicts, but a supervised ViT
# trained 30 epochs on 2000 images reaches 98 / 70 % (drop 28), near the CLIPs. The supervised models saturate
# the common group, where the steep CLIP line is extrapolated.
