# %% [markdown]
# # ssl_protocols — Figure 4: does batch norm help fine-tuning when there are few optimizer steps?
#
# **Paper.** Marks, Knott et al., *A closer look at benchmarking self-supervised pre-training with
# image classification*. Figure 4 shows fine-tuning accuracy with and without a batch-norm layer on the
# embedding for two models, DINO (ResNet-50, "scaled" features) and MaskFeat (ViT-B/16, "unscaled"),
# on every dataset of the study, with the number of optimizer steps each run takes.
#
# **What the text claims (Sec. 4.3 and the caption).** Batch norm is usually left out of fine-tuning
# because "feature scaling will be resolved during training"; the authors claim that this holds only
# for long training, "while fine-tuning on smaller datasets or with fewer epochs can yield significantly
# higher accuracies when BatchNorm is applied". "For MaskFeat, batch normalization has a significant
# effect when the number of optimizer steps is small and only a small effect when the number of steps is
# large, implying less-scaled features compared to DINO."
#
# **What the text prints.** Table S.2 prints a batch-norm variant of fine-tuning only for the two ImageNet
# few-shot protocols (FT10%^BN, FT1%^BN). Fine-tuning with batch norm on the OOD datasets, and on full
# ImageNet, is not printed; nor are the datasets' sizes, so the optimizer steps are computed for ImageNet
# only, from the public size of the ILSVRC-2012 training split (1,281,167 images), Table S.8's epochs and
# Table S.4's batch sizes (parameter `batch_source`; Table S.8 gives 128 instead of 256 for the few-shot
# protocols, which doubles their steps).

# %% tags=["parameters"]
output_dir: str = "figures/ssl_protocols"
metric: str = "top1"
batch_source: str = "table_s4"
study_params: str = "params/mini/ssl_protocols/study.yaml"
results_dir: str = "results"

# %%
import pandas as pd

from lib.claims import ledger
from lib.plotting import save_figure, set_style
from lib.ssl_protocols.accuracies import published_accuracies
from lib.ssl_protocols.batch_norm import (
    FIGURE04_MODELS,
    draw_figure04,
    figure04_frame,
    gain_summary,
    imagenet_fine_tuning_steps,
    normalisation_gains,
)
from lib.ssl_protocols.claims import claims_for, format_ledger

set_style()
pd.set_option("display.width", 160)
pd.set_option("display.max_columns", 20)

# %% [markdown]
# ## 1. The paper's numbers
# The optimizer steps of the three ImageNet fine-tuning protocols under both batch-size sources:

# %%
pd.concat([imagenet_fine_tuning_steps("table_s4"), imagenet_fine_tuning_steps("table_s8")], ignore_index=True)

# %% [markdown]
# Fig. 4's two models as printed: accuracy without and with batch norm (NaN: not printed).

# %%
frame = figure04_frame(metric, FIGURE04_MODELS, batch_source)
frame[frame["dataset"] == "ImageNet"].pivot_table(index=["model", "protocol", "steps"], columns="batch_norm",
                                                  values="accuracy", sort=False)

# %% [markdown]
# ## 2. The figure, as far as Table S.2 prints it

# %%
fig = draw_figure04(frame)
written = save_figure(fig, frame, output_dir, "figure04")
print("\n".join(str(p.relative_to(p.parents[2])) for p in written))

# %% [markdown]
# ## 3. All 26 models: the batch-norm gain in few-shot fine-tuning
# The same comparison for every model (Table S.2, ImageNet): the gain with the batch-norm head, and how
# many models gain or lose more than 2 points (about the largest seed std of Table S.7).

# %%
gains = normalisation_gains(published_accuracies(metric))
few_shot = gains[(gains["dataset"] == "Imagenet") & gains["protocol"].isin(["FT-10%", "FT-1%"])]
print(gain_summary(few_shot).round(2).to_string(index=False))
few_shot.pivot(index="model", columns="protocol", values="gain").loc[list(dict.fromkeys(few_shot["model"]))].round(1)

# %% [markdown]
# ## 4. Audit and claims
# The text quotes no number for Fig. 4, so the audit has no row for it. The claims resting on it:

# %%
print(format_ledger(ledger(claims_for("figure04"))))

# %% [markdown]
# ## 5. Verdict
# - On ImageNet, batch norm helps few-shot fine-tuning for almost every model: with 1 % of the labels
#   (1,530 steps) all 26 models gain more than 2 points (mean +11.3); with 10 % (15,030 steps) 25 of 26
#   gain, 8 by more than 2 points (mean +1.9). The fewer the steps, the larger the gain, as claimed.
# - MaskFeat gains far more than DINO at both step counts (+36.0 and +8.3 vs +10.3 and +1.1), which fits
#   the caption's "less-scaled features"; DINO RN-50's +10.3 at 1 % is not small, though.
# - The figure's main content, fine-tuning with batch norm on the OOD datasets and on full ImageNet (the
#   "large number of steps" end), is not printed, so the claim about small OOD datasets rests on the
#   figure alone.

# %% [markdown]
# ## Our run
# The miniature protocol study (`lib.ssl_protocols.study`): at `tiny` and `mini` a zoo of small models
# pre-trained on the digits with different objectives (supervised, SimCLR, rotation, masked
# reconstruction, none), every protocol of the paper run on the in-domain digits and on shifted or
# re-labelled domains; at `full` the paper's 26 checkpoints and datasets (settings: the file the
# `study_params` parameter names). Each finding below is computed from the run, whatever it shows: the
# quantity behind the paper's claim, a 95 % interval (a seeded bootstrap over models, or a t-interval)
# and the verdict judged by that interval; with a handful of models every rank correlation is coarse.
# Here: Fig. 4's bars, fine-tuning accuracy without and with a batch-norm head, for two of our models.

# %%
from lib.findings import report
from lib.ssl_protocols.ours import our_panel, run_study

settings, ours = run_study(study_params, results_dir)
our_data, our_fig, findings = our_panel("figure04", settings, ours, metric)
save_figure(our_fig, our_data, output_dir, "figure04_ours")
print(f"{settings.source} study, {ours['model'].nunique()} models, one thread per run.")
print(report(findings))

# %% [markdown]
# **Drawn alike.** `figure04_ours` draws the paper's bars (top: DINO RN-50 and MaskFeat ViT-B/16 as Table S.2
# prints them) and ours (bottom) with one function: per model, fine-tuning accuracy without (light) and with
# (dark) the batch-norm head, per dataset and protocol, the in-domain protocols ordered by their optimizer
# steps, on the same 0–100 % axis. Its CSV holds both sources in the results schema.
#
# **What differs, and why.**
# - *Models.* Ours are two stand-ins in the roles of the paper's: a discriminative ResNet for DINO RN-50 (the
#   longest-trained SimCLR ResNet, SimCLR being our objective nearest DINO) and a generative ViT for MaskFeat
#   ViT-B/16 (our masked-reconstruction ViT). The rule is `ours._figure04_models`; at `full` it takes the
#   paper's two models.
# - *Which bars exist.* Our study runs the batch-norm head only where Table S.2 prints one, for the two
#   in-domain few-shot protocols (FT-10 %, FT-1 %). Full FT and FT on every OOD domain have no batch-norm
#   run (`n/r`, not run), as they have no printed one in the paper (`n/p`). So the only pairs to compare are
#   the two few-shot pairs on each side. The OOD bars, which are the figure's main content in the paper, cannot
#   be compared.
# - *Steps.* Ours come from the study settings: the digits' training split (1,257 images) in batches of 64 for
#   5 epochs (FT, 100 steps), and 13 or 1 images per class for 30 epochs (FT-10 %: 90 steps, FT-1 %: 30 steps,
#   the batch capped at the subset). The paper's steps are ImageNet's (1,530 to 500,500), 50 to 5,000 times
#   more. Both sides are ordered by steps.
# - *A collapsed model.* At `mini`, the in-domain fine-tuning of masked-vit-15ep collapses in every run but one:
#   its FT, FT-10 %, FT-1 % and FT-1 % with the head each predict a single class for at least 99.8 % of the 540
#   test items, so they sit at chance (10 %); its FT-10 % with the head reaches 13.5 %, 3.5 points above chance.
#   Its panel therefore shows near-chance bars, not a batch-norm effect. The rule that flags such runs, and their
#   list, are in the Table S.2 notebook. No setting was changed to avoid them.
# - The findings use every model of the zoo, not only the two drawn. The per-model gains are below.
#
# **Reading ours (at `mini`; the committed figures' run, an AMD EPYC).** Ours contradicts the step-count claim:
# the gain with 1 % of the labels minus the gain with 10 % is −27.8 points [−51.8, −3.79] over the 9 models,
# so the head helps more with more steps, not fewer. The toy cannot test the claim, though: without the head
# our few-shot fine-tuning is unstable (the SimCLR ResNet reaches 95.0 % with full FT, 25.4 % with FT-10 % and
# 34.6 % with FT-1 %), so a gain here measures how often training without the head fails as much as how scaled
# the features are. On other CPUs the interval moves (the SSL study's tiny models sit near collapse).

# %%
from lib.ssl_protocols.batch_norm import normalisation_gains

our_gains = normalisation_gains(ours[ours["metric"] == metric])
our_gains = our_gains[(our_gains["dataset"] == settings.in_domain) & our_gains["protocol"].isin(["FT-10%", "FT-1%"])]
our_gains.pivot(index="model", columns="protocol", values="gain").loc[list(dict.fromkeys(our_gains["model"]))].round(1)
