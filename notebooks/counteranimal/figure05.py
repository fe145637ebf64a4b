# %% [markdown]
# # counteranimal — Figure 5: other CLIP setups than the curation one
#
# **Question.** Do backgrounds chosen with CLIP-LAION400M-ViT/B/32 also hurt other backbones on LAION400M and other data
# with ViT/B/32?
#
# **Caption.** "Results for varying CLIP setups beyond CLIP-LAION400M-ViT/B/32: a) Fixing the pre-train dataset to be
# LAION400M and b) fixing the backbone to be ViT/B/32. The 1 vs. 1000 results are given."
#
# Redrawn from the rows of Table 3 the panels compare, every one a CLIP.

# %% tags=["parameters"]
output_dir: str = "figures/counteranimal"
results_dir: str = "results"
study_params: str = "params/mini/counteranimal/study.yaml"

# %%
import matplotlib.pyplot as plt
import pandas as pd
from IPython.display import Markdown, display

from lib.claims import ledger
from lib.counteranimal.claims import claims_for
from lib.counteranimal.figures import audit_rows, audit_summary, draw_bars
from lib.plotting import save_figure, set_style

set_style()
pd.set_option("display.width", 200)
pd.set_option("display.max_columns", 20)
pd.set_option("display.max_colwidth", 90)

# %% [markdown]
# ## 1. The paper's numbers
# Common, counter and drop per model and panel.

# %%
fig, data = draw_bars("figure05")
save_figure(fig, data, output_dir, "figure05")
plt.show()

# %% [markdown]
# ## 2. Audit
# The figure's numbers are Table 3's. The audit's 29 rows: its 28 drops, each equal to common − counter, and a
# number the text quotes (Sec. 5.1).

# %%
rows = audit_rows("table03")
print(audit_summary(rows))
problems = rows[rows["status"] != "ok"]
(problems if len(problems) else rows.head(10))[["artefact", "quantity", "printed", "recomputed", "delta", "status", "note"]].round(3)

# %% [markdown]
# ## 3. Claims resting on Figure 5
# The paper's claims that cite it, judged on the printed numbers (`lib/published/counteranimal/claims.yaml`).

# %%
claims = ledger(claims_for("figure05"))
claims[["claim_id", "section", "verdict", "evidence"]] if len(claims) else Markdown("No claim of the ledger rests on it.")

# %% [markdown]
# ## 4. Verdict
# ViT/B/16 and ViT/L/14 on LAION400M still drop 20.9 and 17.6 points (above the 17 the text quotes); LAION2B
# and OpenAI ViT/B/32 drop 24.2 and 23.5, all less than the curation model's 30.2.

# %% [markdown]
# ## 5. Our run
# The miniature's counter backgrounds are designed (each class's counter background is another class's common
# one), so Figures 2 and 6-9 need no curation. Figure 5 asks whether groups *chosen by one CLIP* also hurt other
# CLIPs, so here the paper's curation (Sec. 2, `lib.counteranimal.curation`) runs on the miniature: every model of
# the study (`lib.counteranimal.study`, settings: the file `study_params` names; Figure 13's notebook describes the
# zoo) is evaluated on every held-out digit on each of the ten backgrounds (the pool), and the study's `curator`
# (a tiny CLIP on the ordinary data, the analogue of CLIP-LAION400M-ViT/B/32) chooses, per seed, each class's best
# background as its common group and its worst as its counter group, keeping the classes whose accuracy varies by
# more than 5 points. Every model is then scored on those groups (class-balanced, as the paper).
#
# The figure `figure05_ours` draws common, counter and drop on the curated groups with the function that drew
# section 1 (`lib.counteranimal.figures.bar_panels`), on the same axis: (a) the curator's data with the smaller and
# the larger image tower (Figure 7's ladder), (b) the curator's backbone with other data (other sizes n; CLIP-HQ, the
# weaker correlation); each bar the mean over seeds, black bars the range over seeds. The findings, with 95 %
# t-intervals over seeds (each seed's value an unweighted mean over the models named, so the interval covers the
# seeds' spread, not the choice of models): the mean drop of (a)'s other backbones and of (b)'s other data, each
# selected relative to the curator, and the selection effect of the notes' P7 (which the paper's Sec. 5.2
# acknowledges by leaving LAION400M and ViT/B/32 out), measured on the models that can be scored both ways: each
# other CLIP's drop on the groups it would choose itself minus its drop on the curator's groups.
#
# **What the toy cannot test.** The paper curated photos that already existed; our pool is rendered, with every
# rare background equally rare in pre-training, so the curator's worst background is whichever rare one confuses it
# most. In the toy any rare background costs accuracy, so "drops > 0" on the curator's groups is a weak test of
# transfer; the paper's own test is a threshold too (drops above 17 points, and curation accuracies that vary by more than 5 %). The paper's drops are on
# 1 vs 1000; ours on 1 vs 10. At `full` the same code scores the paper's checkpoints on the real groups, which the
# paper's curator chose, and draws the paper's panels; the curator's relatives are then the paper's models read from
# their Table 3 rows (LAION400M with another backbone; ViT/B/32 on other data), and the selection effect has no
# pool to be measured on.
#
# **Reading ours (at `mini`).** Both kinds of relatives drop on the curator's groups in every seed, as the paper's
# do (66.7 points on average with another image tower, 32.4 with other data). Like the paper's curator, ours drops
# most of the seven CLIPs scored on its groups (83 points; next the smaller image tower, 75). The selection effect measured directly is
# not distinguishable: a model's drop on the groups it would choose itself exceeds its drop on the curator's by
# 13.5 points on average, but the interval over three seeds (-4.48 to 31.5) spans zero, so our run neither shows
# nor excludes the inflation the notes' P7 expects in the paper's curator's drop, the largest of Table 3.

# %%
from lib.counteranimal.ours import bar_findings, curation, our_bars, our_points

settings, curated, groups = curation(study_params, results_dir)
our_fig, our_data = our_bars("figure05", settings, curated)
save_figure(our_fig, our_data, output_dir, "figure05_ours")
plt.show()
print(bar_findings("figure05", our_points(curated)))

# %% [markdown]
# The curator's choice, the analogue of Table 2 (per seed: each class's common and counter background and the
# curator's accuracy on each; `kept` where they differ by more than 5 points), beside the miniature's designed
# backgrounds. Every rare background is equally rare in pre-training, so the curator's counter background is the
# rare one it confuses most, not necessarily the designed one (at `mini`, in none of the 30 rows is it the designed
# counter background, and in 9 the chosen common background is not the designed one either); ties in accuracy (common at this size: about 54 digits per
# class and background at `mini`) go by name (`lib.counteranimal.curation`). At `full` the table is empty: the
# real groups were chosen by the paper.

# %%
from lib.counteranimal.miniature import background_table

designed = background_table(settings.spec()).rename(columns={"common": "designed common", "counter": "designed counter"})
groups.merge(designed, on="class")[["seed", "class", "common_background", "designed common", "counter_background",
                                     "designed counter", "common_accuracy", "counter_accuracy", "kept"]].round(1)
