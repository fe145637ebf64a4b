# %% [markdown]
# # counteranimal — Table 7: ColoredCOCO
#
# **Question.** Does fine-tuning a CLIP with the CLIP objective give more robustness than supervised fine-tuning on
# ColoredCOCO?
#
# **Caption.** "Comparison between CLIPs and standard supervised learning on ColoredCOCO"
#
# In-distribution and out-of-distribution accuracy of zero-shot, CLIP-objective fine-tuning with `obj` or
# `objbkg` captions, and supervised fine-tuning, for RN50 and ViT/B/16 (OpenAI weights).

# %% tags=["parameters"]
output_dir: str = "figures/counteranimal"
coloredcoco_params: str = "params/mini/counteranimal/coloredcoco.yaml"
results_dir: str = "results"

# %%
import matplotlib.pyplot as plt
import pandas as pd
from IPython.display import Markdown, display

from lib.claims import ledger
from lib.counteranimal.claims import claims_for
from lib.counteranimal.figures import audit_rows, audit_summary, draw_table07_grid
from lib.plotting import save_figure, set_style

set_style()
pd.set_option("display.width", 200)
pd.set_option("display.max_columns", 20)
pd.set_option("display.max_colwidth", 90)

# %% [markdown]
# ## 1. The paper's numbers
# Cells as printed (`21` is printed without decimals).

# %%
fig, data = draw_table07_grid()
save_figure(fig, data, output_dir, "table07")
plt.show()

# %% [markdown]
# ## 2. Audit
# All eight drops equal in-distribution − out-of-distribution.

# %%
rows = audit_rows("table07")
print(audit_summary(rows))
problems = rows[rows["status"] != "ok"]
(problems if len(problems) else rows.head(10))[["artefact", "quantity", "printed", "recomputed", "delta", "status", "note"]].round(3)

# %% [markdown]
# ## 3. Claims resting on Table 7
# The paper's claims that cite it, judged on the printed numbers (`lib/published/counteranimal/claims.yaml`).

# %%
claims = ledger(claims_for("table07"))
claims[["claim_id", "section", "verdict", "evidence"]] if len(claims) else Markdown("No claim of the ledger rests on it.")

# %% [markdown]
# ## 4. Verdict
# Fine-tuned models collapse out of distribution (0.2–5.3 %) except ViT/B/16 with `obj` captions (21 %, 20
# points above supervised): the claim of "no non-trivial robustness" holds for 3 of the 4 CLIP-objective runs.
# Zero-shot models are the most robust here.

# %% [markdown]
# ## 5. Our run: ColoredCOCO at `full`, a ColoredCOCO-style study on background-coloured digits below it
# **At `full`** (`lib.counteranimal.coloredcoco_coco`, the settings' `source: coco`): ColoredCOCO itself, built as
# Ahmed et al. 2021's maker builds it from COCO 2017 (the largest object of each of nine classes per image, pasted
# at 64 px on a background of 0.75 × its colour; 800 fine-tuning and 100 test objects a class), OpenAI's CLIP RN50
# and ViT-B/16 from the model registry, the four approaches below with the real towers and captions, and every
# fine-tuning over the paper's 3 × 3 × 2 grid, the best in-distribution test accuracy kept. It needs COCO and the
# weights, so it runs on a GPU machine, not here; its panels are named by the registry rows (CLIP-OpenAI-RN50 is the
# paper's RN50 (OpenAI), CLIP-OpenAI-ViT/B/16 its ViT16 (OpenAI)). With `selection: test` (the settings file's
# default) each grid point is picked on the test set it reports, as the paper selects, so in-distribution accuracy
# reads high; `selection: validation` picks it on the maker's 100 validation objects a class, which every run also
# predicts, so the same stored runs give both readings. **At `tiny` and `mini`**, the embedded design that follows.
#
# **The data** (`lib.counteranimal.coloredcoco`; settings: the file `coloredcoco_params` names): scikit-learn's
# 8 × 8 digits 0–8 (nine classes, as the paper's nine COCO classes) on a coloured background, each class's digits
# split per seed into a pretraining, a fine-tuning and a test part. Fine-tuning set and in-distribution test:
# exactly 80 % of each class on its own "biased" colour, the rest on one of ten other colours; out-of-distribution
# test: the same images, each on another class's biased colour (the design of App. D.3 as we read it).
#
# **The model and the approaches.** A tiny CLIP (an MLP image encoder; a text side of one learned embedding per
# object word and per colour word) is pretrained with CLIP's loss on the pretraining part, every colour drawn at
# random and every caption naming object and colour: it knows both words, never correlated. Then, as Table 7's
# rows: *zero shot* (the pretrained CLIP, prompts naming the object); *obj* and *objbkg* (fine-tuned with the CLIP
# objective on captions naming the object, or the object and its background colour); *supervised* (the
# pretrained image encoder with a new MLP head, fully fine-tuned with cross-entropy). One learning rate and
# weight decay (the paper picks the best of a 3 × 3 × 2 grid by in-distribution accuracy).
#
# **The findings.** The claim ("fine-tuning with CLIP objective based on neither of the prompts provides any
# non-trivial robustness against the vanilla full fine-tuning") is judged per prompt on the out-of-distribution
# accuracy minus supervised fine-tuning's, paired by seed, with a 95 % t-interval over seeds, against the claims
# file's reading of "non-trivial" (more than 5 points); and each fine-tuned approach's drop against 0 (it leans
# on the colour). Paper and ours are drawn by one function on one 0–100 scale, the paper's cells as printed, ours
# as mean ± sd over seeds; the CSV holds both in the one results schema (`source` paper / ours, ours per seed).
#
# **What the toy cannot test.** Our CLIP is an MLP pretrained on 650 digits, not OpenAI's RN50 / ViT-B/16 on 400M
# image-text pairs; its text side is a lookup of two words, so "weak language understanding", the paper's
# alternative explanation, cannot arise; and the colour fills the whole background, a stronger cue than a
# COCO object's surroundings. The `full` tier tests the claim itself, on ColoredCOCO with OpenAI's CLIPs.

# %%
from lib.counteranimal.coloredcoco import drop_findings, findings, run_study, show_examples
from lib.counteranimal.figures import table07_frame
from lib.findings import report

settings, ours = run_study(coloredcoco_params, results_dir)
our_fig, our_data = draw_table07_grid(table07_frame(ours))
save_figure(our_fig, our_data, output_dir, "table07_ours")
plt.show()

# %% [markdown]
# Figure 11's analogue: fine-tuning images of each class (rows), then one test image in and out of distribution.

# %%
examples = show_examples(settings)
plt.show()

# %%
claim, premise = findings(ours, settings.margin), drop_findings(ours)
print(report(claim))
print(report(premise))
display(Markdown(f"**Our run ({ours['tier'].iloc[0]}, {len(settings.seeds)} seeds).** \"No non-trivial robustness "
                 f"from the CLIP objective\": **{claim.verdict.replace('_', ' ')}**. Every fine-tuned approach leans on the colour: "
                 f"**{premise.verdict.replace('_', ' ')}**. The paper's numbers: the claim holds for 3 of its 4 CLIP-objective runs."))

# %% [markdown]
# **Reading ours (at `mini`).** Both CLIP-objective fine-tunings keep more out-of-distribution accuracy than the
# supervised one (obj +11.4, objbkg +18.7 points), above the 5-point reading of "non-trivial", so the run leans
# against the claim. With five seeds obj's interval (+5.26 to +17.6) lies above the 5-point reading (contradicted);
# objbkg's is wide and reaches down to +2.74 (not distinguishable). Unlike both of the paper's backbones, objbkg's
# mean out-of-distribution accuracy is above obj's here (55.9 against 48.6 %, higher in 3 of the 5 seeds), though
# its in-distribution accuracy is lower (89.9 against 95.3 %). Every fine-tuning leans on the colour (drops of 34
# to 57 points), while zero-shot, pretrained on uncorrelated colours, scores 81.6 % in and 85.6 % out of
# distribution (figure above): the shift does not hurt it.
