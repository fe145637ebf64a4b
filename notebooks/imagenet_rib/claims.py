# %% [markdown]
# # imagenet_rib — claims ledger
#
# **Paper.** *Large pretraining datasets don't guarantee robustness after fine-tuning* (ImageNet-RIB).
# Each claim of the abstract, the introduction, Sec. 4–5 and the appendix that the printed tables bear
# on, with the artefacts it rests on and a verdict computed from the printed numbers
# (`lib/imagenet_rib/claims.py` states the rules: "across/all/consistently" need every case, "most" and
# unquantified statements a strict majority; "similar" means within 5 points). A claim resting only on
# curves the text does not print is `not_checkable`.

# %% tags=["parameters"]
output_dir: str = "build/tiny/figures/imagenet_rib"

# %%
import matplotlib.pyplot as plt
import pandas as pd
from IPython.display import Markdown, display

from lib.claims import paper_ledger
from lib.imagenet_rib.claims import format_ledger
from lib.imagenet_rib.figures import draw_ledger
from lib.plotting import save_figure, set_style

set_style()
pd.set_option("display.width", 200)
pd.set_option("display.max_colwidth", 120)
pd.set_option("display.max_rows", 100)

# %% [markdown]
# ## 1. The ledger

# %%
ledger = paper_ledger("imagenet_rib")
fig = draw_ledger(ledger)
written = save_figure(fig, ledger, output_dir, "claims")  # claims.csv is the ledger itself
plt.show()
print(ledger["verdict"].value_counts().to_string())
ledger[["claim_id", "section", "verdict", "artefacts"]]

# %% [markdown]
# ## 2. Every claim with its evidence

# %%
print(format_ledger(ledger))

# %% [markdown]
# ## 3. What contradicts the paper
# The claims the printed numbers contradict, and those the text does not let anyone check:

# %%
for verdict in ("contradicted", "not_checkable"):
    display(Markdown(f"**{verdict}**"))
    for r in ledger[ledger["verdict"] == verdict].itertuples():
        display(Markdown(f"- *{r.claim}* ({r.section}): {r.evidence}"))

# %% [markdown]
# ## Our run
# The miniature ImageNet-RIB run is added by the benchmark notebooks; its own claims check goes there.
