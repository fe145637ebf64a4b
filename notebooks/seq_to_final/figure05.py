# %% [markdown]
# # seq_to_final — Figure 5: images of the corruption, label flip, rotation (CLR) sequence
#
# **Paper.** Ji, Alaa and Sontag, *Seq-to-Final: a benchmark for tuning from sequential distributions
# to a final time point*.
#
# **Question.** What does a model see at each step of the CLR sequence, when every step adds its shift on
# top of the previous ones — drawn by our sampler and shift code?
#
# **Caption.** "Images in CIFAR-10 shift sequence: corruption, label flip, and rotation. At each step, a new
# shift is added on top of the shifts in the previous rows."
#
# **What the paper describes** (Sec. 2.3, App. A): step 0 is the source; step 1 adds noise, step 2 flips
# the labels (Y → 9 − Y), step 3 rotates by 30°. Every step draws new images from the training set
# (stratified, equal per class); they are not transformed versions of the previous step's images.
#
# **Our drawing.** No CIFAR-10 here: scikit-learn's handwritten digits (enlarged to 32×32 RGB) stand in,
# which makes the label flip visible. `lib.seq_to_final.sampler.synthetic_sequence(pool, "CLR")` builds the
# sequence as the official code does (per-step seeds, per-class draws, noise → rotation → recolouring →
# flips); as the official `visualize_images`, each column shows the first training image whose label **at
# that step** is the column's label. Yellow: the digit actually drawn.
#
# **Difference from what the models see.** The digits are drawn here at 32×32 so that the shifts are
# visible; the analysis and table runs of the mini tier use them at 8×8 (`image_size: 8` in study.yaml and
# geometry.yaml), where a 30° nearest-neighbour rotation moves whole pixels of an 8-pixel digit and is
# much coarser than the rotated rows below suggest.

# %% tags=["parameters"]
output_dir: str = "figures/seq_to_final"
seed: int = 1007

# %%
import matplotlib.pyplot as plt
import pandas as pd
from lib.plotting import save_figure, set_style
from lib.seq_to_final.illustrations import draw_sequence_examples

set_style()
pd.set_option("display.width", 200)
pd.set_option("display.max_columns", 20)

# %% [markdown]
# ## 1. The figure, drawn by our sampler and shift code

# %%
fig, data = draw_sequence_examples("CLR", seed=seed)
save_figure(fig, data, output_dir, "figure05")
plt.show()

# %% [markdown]
# ## 2. The step's label against the digit drawn

# %%
data.pivot(index="step", columns="label", values="pool_label")

# %% [markdown]
# ## 3. Verdict
# - Step 0 is clean; step 1's images look the same (the noise is ±3 at most); from step 2 on the column
#   "label 0" holds a 9, "label 1" an 8, …: the labels are flipped, not the images; step 3 keeps the
#   flip and adds the 30° counter-clockwise rotation (a "1" leans to the left). The black corners the
#   rotation leaves merge with the digits' black background here; Figure 2 shows them on photos.
# - Each row holds different images: the steps are fresh draws, as the paper says.
