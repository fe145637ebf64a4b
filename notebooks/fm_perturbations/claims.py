# %% [markdown]
# # fm_perturbations — Claims ledger
#
# **Paper.** Liu, Jiang, Hong, Gong, *Robustness of vision foundation models to common perturbations*.
#
# One row per claim of the abstract and Sec. 1–8: where the paper makes it, the artefacts it rests on,
# and a verdict computed from what the text prints (Tables 1–3 and the numbers it quotes for Figs. 1, 3
# and 4) or, for the theory (Table 1, Theorems 1 and 2, Fig. 1), from our metric code. The claims are
# data (`lib/published/fm_perturbations/claims.yaml`), judged by the shared predicates of `lib.claims`;
# assessors no shared predicate fits are registered by id in `lib/fm_perturbations/claims.py`.
#
# Readings: drops "by x%" are percentage points (ACC − ACC_p); Fig. 1 is three plane unit vectors 120°
# apart. Claims on Figures 3–7 and the appendix (Tables 4–9, Figures 8–16) are `not_checkable` on the
# paper's numbers: the figures print none and the appendix is not in the text.

# %% tags=["parameters"]
output_dir: str = "figures/fm_perturbations"

# %%
import matplotlib.pyplot as plt
import pandas as pd
from IPython.display import Markdown, display

from lib.claims import draw_ledger, format_ledger, paper_ledger, verdict_counts
from lib.plotting import save_figure, set_style

set_style()
pd.set_option("display.width", 200)
pd.set_option("display.max_colwidth", 80)
pd.set_option("display.max_rows", 100)

# %% [markdown]
# ## 1. The ledger at a glance

# %%
frame = paper_ledger("fm_perturbations")
fig = draw_ledger(frame)
save_figure(fig, frame, output_dir, "claims")
plt.show()
print(f"{len(frame)} claims: {verdict_counts(frame)}")
frame[["claim_id", "section", "artefacts", "verdict"]]

# %% [markdown]
# ## 2. Contradicted and partly supported

# %%
for verdict in ("contradicted", "partly_supported"):
    display(Markdown(f"### {verdict}"))
    for r in frame[frame["verdict"] == verdict].itertuples():
        display(Markdown(f"- **{r.claim_id}** — *{r.claim}* ({r.section})\n\n  {r.evidence}"))

# %% [markdown]
# ## 3. Every claim with its evidence

# %%
print(format_ledger(frame))

# %% [markdown]
# ## 4. Verdict
#
# - **Supported:** the theory (Table 1's violations, Theorem 2, Fig. 1's R_cs = 0.75, R_cs = 1 only for
#   antipodal pairs) on our metric code; every perturbation lowers accuracy in Tables 2 and 3; the
#   9.4-point glass-blurring drop; the direction of the quoted DINO-vs-CLIP radii.
# - **Contradicted:** "Frost blurring reduces Food101 linear-probe accuracy by 3.3%" (Table 3: 9.1).
# - **Partly supported:** Defocus blurring has the largest Table 2 drop for the linear probe, not for
#   zero-shot (Glass blurring).
# - **Not checkable** on the paper's numbers: every claim resting on Figures 3–7 or on the appendix;
#   they wait for our run of the real models.
