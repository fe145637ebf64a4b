# %% [markdown]
# # imagenet_rib — Table 31: ImageNet-C accuracy per corruption after fine-tuning
#
# **Question.** How does each of ImageNet-C's fifteen corruptions move after fine-tuning ViT-B/16
# IN-1K + AugReg with each method on each D_FT? Sec. 4.2 says fine-tuning on ImageNet-C helps the
# other synthetic datasets but not the other way round; this table breaks the ImageNet-C column of
# Table 30 down by corruption.
#
# **Caption.** "Accuracy of ImageNet-1K with AugReg pretrained ViT-B/16 with different fine-tuning
# methods and downstream datasets on each ImageNet-C corruption."
#
# The accuracies are averaged over the five severities and printed as integers; the `Avg` column is
# the mean over the corruptions.

# %% tags=["parameters"]
output_dir: str = "figures/imagenet_rib"

# %%
import matplotlib.pyplot as plt
import pandas as pd
from IPython.display import Markdown, display

from lib.imagenet_rib.figures import audit_rows, audit_summary, draw, verdict_markdown
from lib.imagenet_rib.tables import load_table, table31_corruption_means
from lib.plotting import save_figure, set_style

set_style()
pd.set_option("display.width", 200)
pd.set_option("display.max_columns", 20)

# %% [markdown]
# ## 1. The paper's numbers
# Each cell shows the printed accuracy per corruption; its colour is the change from the pretrained
# model (blue = gain, red = loss).

# %%
fig, data = draw("table31")
save_figure(fig, data, output_dir, "table31")
plt.show()

# %% [markdown]
# ## 2. Re-derivation
# The `Avg` column against the mean of the 15 corruptions (printed as integers, so the mean carries
# ±0.5), and against Table 30's ImageNet-C column.

# %%
means = table31_corruption_means(load_table("table31"))
means["mean - printed"] = (means["mean"] - means["printed"].astype(float)).round(3)
means.round(3)

# %% [markdown]
# ## 3. Audit rows

# %%
rows = audit_rows("table31")
print(audit_summary(rows))
rows[rows["status"] != "ok"].round(3) if (rows["status"] != "ok").any() else rows.head(12).round(3)

# %% [markdown]
# ## 4. Verdict

# %%
display(Markdown(verdict_markdown("table31")))

# %% [markdown]
# ## Our run
# ImageNet-C's fifteen corruptions at five severities have no counterpart in our miniature run: its
# suite holds shifted digit domains, each one shift at one strength (at `mini` some are corruptions:
# blur, noise, low contrast), not a benchmark of many corruptions at several severities whose accuracy
# could be broken down per corruption.
