# %% [markdown]
# # counteranimal — Figure 5: other CLIP setups than the curation one
#
# **Question.** Do backgrounds chosen with CLIP-LAION400M-ViT/B/32 also hurt other backbones on LAION400M and other data
# with ViT/B/32?
#
# **Caption.** "Results for varying CLIP setups beyond CLIP-LAION400M-ViT/B/32: a) Fixing the pre-train dataset to be
# LAION400M and b) fixing the backbone to be ViT/B/32. The 1 vs. 1000 results are given."
#
# Redrawn from the rows of Tables 3 and 4 the panels compare (tick colours: family).

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
# The figure's numbers are Tables 3 and 4, whose 43 drops all equal common − counter.

# %%
rows = audit_rows("table03", "table04")
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
# t-intervals over seeds: the mean drop of (a)'s other backbones and of (b)'s other data, and how much more the
# curator drops on the groups it chose than the other CLIPs (the selection effect of the notes' P7, which the paper's
# Sec. 5.2 acknowledges by leaving LAION400M and ViT/B/32 out).
#
# **What the toy cannot test.** The paper curated photos that already existed; our pool is rendered, with every
# rare background equally rare in pre-training, so the curator's worst background is whichever rare one confuses it
# most. The paper's drops are on 1 vs 1000; ours on 1 vs 10.

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
# rare one it confuses most, not necessarily the designed one.
#
# **Reading the selection effect.** The third finding compares the curator with every other CLIP, and some of them
# are less accurate than the curator; a less accurate model drops more on any hard group (the accuracy-on-the-line
# trend of Figure 2's notebook), so the gap is a lower bound on selection only where the others are at least as
# accurate as the curator; the panels show each model's common accuracy beside the curator's.

# %%
from lib.counteranimal.miniature import background_table

designed = background_table(settings.spec()).rename(columns={"common": "designed common", "counter": "designed counter"})
groups.merge(designed, on="class")[["seed", "class", "common_background", "designed common", "counter_background",
                                     "designed counter", "common_accuracy", "counter_accuracy", "kept"]].round(1)
