"""The 18 methods of Seq-to-Final's Table 1 as the official code runs them, on a drawn sequence's tensors.

Training (`fit`, the official `fit_single_model`): inputs scaled as the sequence's spec says (`to_tensors`: raw
0-255 for the synthetic sequences, the loader's Normalize for Portraits) without augmentation
(`Settings.augmentation="none"`; "paper" applies App. A.2's flips, crops and small rotations); Adam at a constant lr with Adam's own weight decay
off and an explicit `wd · Σ w²` over the conv and linear parameters (BatchNorm excluded, no ½) added to
the mean cross-entropy; dropout after the stem and every block; batches of 100; at most 100 epochs;
early stopping once the validation accuracy has not improved on the PREVIOUS epoch's for more than 5
epochs in a row; the returned model is the best-validation epoch, epoch 0 (the initial model) included.
Each fit runs through `lib.train.loop.train` (optimizer "adamw" with weight decay 0 = Adam, schedule
"constant"). `select` fits every point of the lr × wd × dropout grid from the same initial model and
keeps the best on validation (the first point wins a tie).

Methods (`RUNS`: run name -> `Run`; the run's Table 1 column in `Run.column`):
- Oracle / Baseline: ERM on the final step (the oracle on the sequence regenerated with all samples at
  the final step, `Run.sequence == "oracle"`); selection on the final validation split.
- ERM / IRM / DRO: all steps; ERM on their concatenation, IRM (λ = 1, the minimal "two halves" penalty on
  a dummy class-wise multiplier) and DRO (back-propagate only the worst step's batch loss) on one batch
  per step and optimisation step, the longest step driving the epoch; selection on the final validation.
- FT, LP-FT, I-FT, D-FT: ERM (IRM, DRO) pre-training selected on the combined historical validation set,
  then fine-tuning on the final step (LP-FT: the head alone first, `lib.finetune.lp_ft`, then all layers,
  each stage a full grid). `Settings.pretrain_includes_final`: the code feeds I-FT's and D-FT's
  pre-training all steps including the final one (True, default); the text says historical only.
- ST-1 / ST-B: the pre-trained blocks frozen (BatchNorm statistics too), a side module added in parallel
  to every block (`SideTunedNet`: a 3×3 conv + BN with the block's stride, or a re-initialised copy of
  the block), and, as the code does with its frozen 2-step joint model, a fresh randomly initialised stem
  and head pulled towards the frozen ones by `λ_adj Σ (θ − θ_prev)²` (grid × λ_adj grid).
  `Settings.side_stem_head_init="previous"` starts them from the frozen ones instead.
- SFT: ERM on the source, then fine-tuning at every step from the previous step's model; learning-rate
  schedules "none" (the grid at every step), "linear" (lr_t = start − (t − 1)·step) and "exponential"
  (lr_t = start · factor^(t − 1)) for t = 1..T, the (start, decay) pair chosen by the final validation.
  The paper's SFT column is the maximum TEST accuracy over the three runs (the code's summary); that is
  a reading of the tables, made from the stored predictions of the three runs.
- EWC: SFT without decay plus `λ Σ_{s<t} Σ_i F_{s,i} (θ_i − θ_{s,i})²` (no ½, no L2-to-zero term,
  λ over `Settings.ewc_grid`), reusing `lib.finetune.regularizers.QuadraticAnchor`. The Fisher
  (`Settings.ewc_fisher`): "code" = squared gradients of batch-SUMMED losses over the step's training
  set divided by its size, in eval mode; "per_example" = `regularizers.diagonal_fisher` (empirical).
- SST-1 / SST-B: a new side module per block at every step, everything earlier frozen; stem and head as
  in ST.
- JM: a separate model per step trained jointly on one batch per step:
  `Σ_t c_t L_t / (T + 1) + λ2 Σ_t Σ w_t² + λ_adj Σ_{t≥1} ‖w_t − w_{t−1}‖²` with c_T = 3 (else 1), all
  parameters (BatchNorm affine too) in the adjacent term, fixed lr / λ2 / dropout, all modules random;
  λ_adj over its grid, selection on the final validation.
- JST-1 / JST-B: base modules at step 0 and additive side modules at every later step in every layer
  (stem and head too), learned jointly with the same loss and no adjacent term.

Table 15's ablations: fine-tuning pulled towards the pre-trained weights instead of towards zero, from
them or from a fresh random model (`fine_tune_towards_previous`).

Stages (`Context.stage`): the ERM fits several methods start from, ERM on the historical steps (FT, LP-FT, ST,
Table 15's ablations) and on the source step (SFT, EWC, SST), are trained once per run set and read back by the
others (`lib.store.StageCache`), which then predict exactly as they do training them themselves. Like the runs, they
are keyed by what they are computed from, not by the code: after changing an ERM fit, delete the stored stages too.

Also here: `interpolated_state` for the linear interpolation paths (Figs 1, 10-15; `interpolation_paths`
evaluates them), with the code's treatment of BatchNorm and ResNet downsample convolutions as an option,
and `average_states`.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, astuple, dataclass, field
from functools import cached_property

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from ..evaluate.predictions import predict_ranked, top_k
from ..finetune.interpolation import interpolate, uniform_soup
from ..finetune.linear_probe import set_batchnorm_frozen, set_trainable
from ..finetune.lp_ft import lp_ft_stages
from ..finetune.regularizers import QuadraticAnchor, diagonal_fisher
from ..store import StageCache
from ..train.loop import device_of, tensor_batches, train
from ..train.config import TrainConfig
from .architectures import SeqToFinalNet, build
from .sequence import ShiftSequence, Split, as_inputs
from .shifts import augment

Data = tuple[torch.Tensor, torch.Tensor]  # inputs (N, 3, H, W) on 0-255, labels (N,)
Objective = Callable[[nn.Module, torch.Tensor, torch.Tensor, float], torch.Tensor]
Penalty = Callable[[nn.Module], torch.Tensor]


# ---------------------------------------------------------------------------------------------- settings

@dataclass(frozen=True)
class Hyper:
    """One point of the model-selection grid."""

    lr: float
    weight_decay: float
    dropout: float


@dataclass(frozen=True)
class Settings:
    """The protocol's hyper-parameters (defaults: the official code's; the small tiers shrink them)."""

    lrs: tuple[float, ...] = (1e-3, 1e-4)
    weight_decays: tuple[float, ...] = (1e-4, 1e-2)
    dropouts: tuple[float, ...] = (0.0, 0.5)
    max_epochs: int = 100
    patience: int = 5
    batch_size: int = 100
    irm_penalty: float = 1.0
    joint: Hyper = Hyper(1e-3, 1e-4, 0.5)
    final_loss_weight: float = 3.0
    adjacent_grid: tuple[float, ...] = (0.01, 0.1, 1.0)
    ewc_grid: tuple[float, ...] = (1e-4, 1e-2)
    ewc_fisher: str = "code"
    linear_decays: tuple[tuple[float, float], ...] = ((1e-3, 1e-4), (1e-4, 1e-5))
    exponential_decays: tuple[tuple[float, float], ...] = ((2e-3, 0.5), (2e-4, 0.5), (2e-4, 0.75))
    pretrain_includes_final: bool = True
    side_stem_head_init: str = "random"
    augmentation: str = "none"
    device: str = "cpu"

    def __post_init__(self) -> None:
        for name, known in (("ewc_fisher", FISHERS), ("side_stem_head_init", STEM_HEAD_INIT),
                            ("augmentation", AUGMENTATIONS)):
            if getattr(self, name) not in known:
                raise ValueError(f"{name} must be one of {sorted(known)}, got {getattr(self, name)!r}")

    def grid(self, lrs: Sequence[float] | None = None) -> list[Hyper]:
        """lr × weight decay × dropout, in that nesting order (`lrs` overrides the lr axis)."""
        return [Hyper(lr, wd, p) for lr in (self.lrs if lrs is None else lrs)
                for wd in self.weight_decays for p in self.dropouts]


# ------------------------------------------------------------------------------------------------- data

@dataclass(frozen=True)
class SequenceTensors:
    """Each step's train and valid splits as tensors, and the final step's test split."""

    train: tuple[Data, ...]
    valid: tuple[Data, ...]
    test: Data
    num_classes: int

    @property
    def final_index(self) -> int:
        return len(self.train) - 1


def _tensors(split: Split, scaling: str) -> Data:
    return torch.from_numpy(as_inputs(split.images, scaling)), torch.from_numpy(split.labels.astype(np.int64))


def to_tensors(sequence: ShiftSequence) -> SequenceTensors:
    """The sequence's splits as tensors, its images scaled as its spec's `input_scaling` says."""
    scaling = sequence.spec.input_scaling
    return SequenceTensors(tuple(_tensors(s, scaling) for s in sequence.steps_of("train")),
                           tuple(_tensors(s, scaling) for s in sequence.steps_of("valid")),
                           _tensors(sequence.final("test"), scaling), sequence.num_classes)


def concatenate(parts: Sequence[Data]) -> Data:
    return torch.cat([p[0] for p in parts]), torch.cat([p[1] for p in parts])


class StepBatches:
    """One batch from every step per optimisation step (IRM, DRO, joint models): the step with the most
    batches drives the epoch and the others restart when they run out. A batch is the steps' inputs
    concatenated, with targets (N, 2) = (label, step index)."""

    def __init__(self, steps: Sequence[Data], batch_size: int, seed: int) -> None:
        self.loaders = [tensor_batches(x, y, batch_size, seed + index) for index, (x, y) in enumerate(steps)]

    def __len__(self) -> int:
        return max(len(loader) for loader in self.loaders)

    def __iter__(self) -> Iterator[tuple[torch.Tensor, torch.Tensor]]:
        iterators = [iter(loader) for loader in self.loaders]
        for _ in range(len(self)):
            inputs, targets = [], []
            for index, loader in enumerate(self.loaders):
                try:
                    x, y = next(iterators[index])
                except StopIteration:
                    iterators[index] = iter(loader)
                    x, y = next(iterators[index])
                inputs.append(x)
                targets.append(torch.stack([y, torch.full_like(y, index)], dim=1))
            yield torch.cat(inputs), torch.cat(targets)


# --------------------------------------------------------------------------------------- loss functions

def erm_objective(model: nn.Module, inputs: torch.Tensor, targets: torch.Tensor, dropout: float) -> torch.Tensor:
    return F.cross_entropy(model(inputs, dropout), targets)


def _per_step(inputs: torch.Tensor, targets: torch.Tensor) -> Iterator[tuple[int, torch.Tensor, torch.Tensor]]:
    steps = targets[:, 1]
    for step in torch.unique(steps).tolist():
        chosen = steps == step
        yield int(step), inputs[chosen], targets[chosen, 0]


def irm_penalty(logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    """Σ_k g1_k · g2_k: the gradients of the two half-batches' mean losses with respect to a dummy
    class-wise multiplier of the logits at 1 (an unbiased estimate of ‖∇_w L(w · f)‖²)."""
    scale = torch.ones(logits.shape[1], device=logits.device, requires_grad=True)
    half = len(labels) // 2
    first = F.cross_entropy(logits[:half] * scale, labels[:half])
    second = F.cross_entropy(logits[half:] * scale, labels[half:])
    g1 = torch.autograd.grad(first, scale, create_graph=True)[0]
    g2 = torch.autograd.grad(second, scale, create_graph=True)[0]
    return (g1 * g2).sum()


def irm_objective(penalty_weight: float) -> Objective:
    """Σ_t [mean CE_t + λ · IRM penalty_t] over the steps in the batch."""
    def objective(model, inputs, targets, dropout):
        total = inputs.new_zeros(())
        for _, x, y in _per_step(inputs, targets):
            logits = model(x, dropout)
            total = total + F.cross_entropy(logits, y) + penalty_weight * irm_penalty(logits, y)
        return total
    return objective


def dro_objective(model, inputs, targets, dropout):
    """The largest of the steps' batch losses (only it is back-propagated)."""
    return torch.stack([F.cross_entropy(model(x, dropout), y) for _, x, y in _per_step(inputs, targets)]).max()


def joint_objective(final_weight: float, n_steps: int) -> Objective:
    """Σ_t c_t · CE(model at step t) / (T + 1), c_T = `final_weight`, else 1 (the code's division by the steps)."""
    def objective(model, inputs, targets, dropout):
        total = inputs.new_zeros(())
        for step, x, y in _per_step(inputs, targets):
            weight = final_weight if step == n_steps - 1 else 1.0
            total = total + weight * F.cross_entropy(model(x, dropout, step=step), y)
        return total / n_steps
    return objective


def regularised_names(model: nn.Module) -> list[str]:
    """The conv and linear parameters (BatchNorm excluded): what the weight penalty, the Fisher and the
    pulls towards previous weights act on."""
    return [f"{module_name}.{name}" if module_name else name
            for module_name, module in model.named_modules() if isinstance(module, (nn.Conv2d, nn.Linear))
            for name, _ in module.named_parameters(recurse=False)]


def weight_penalty(model: nn.Module, weight_decay: float) -> QuadraticAnchor:
    """`weight_decay · Σ w²` over the trainable conv and linear parameters: a pull towards zero."""
    parameters = dict(model.named_parameters())
    return QuadraticAnchor({n: torch.zeros_like(parameters[n]) for n in regularised_names(model)
                            if parameters[n].requires_grad}, weight_decay)


def pull_to(model: nn.Module, names: Sequence[str], coefficient: float,
            importance: dict[str, torch.Tensor] | None = None) -> QuadraticAnchor:
    """`coefficient · Σ importance (θ − θ_now)²` over `names`, anchored at their current values."""
    parameters = dict(model.named_parameters())
    return QuadraticAnchor({n: parameters[n].detach().clone() for n in names}, coefficient, importance)


def adjacent_penalty(coefficient: float) -> Penalty:
    """`coefficient · Σ_{t≥1} ‖w_t − w_{t−1}‖²` over all parameters of a `JointModel`'s step models."""
    def penalty(model: JointModel) -> torch.Tensor:
        total = next(model.parameters()).new_zeros(())
        for previous, current in zip(model.models[:-1], model.models[1:]):
            for a, b in zip(previous.parameters(), current.parameters()):
                total = total + (b - a).pow(2).sum()
        return coefficient * total
    return penalty


def batch_summed_fisher(model: nn.Module, data: Data, batch_size: int, names: Sequence[str]) -> dict[str, torch.Tensor]:
    """The code's Fisher: Σ_batches (∇θ Σ_{i ∈ batch} ℓ_i)² / N, in eval mode (modes restored)."""
    parameters = dict(model.named_parameters())
    fisher = {n: torch.zeros_like(parameters[n]) for n in names}
    modes = {module: module.training for module in model.modules()}
    model.eval()
    try:
        for x, y in tensor_batches(*data, batch_size, seed=0, shuffle=False):
            loss = F.cross_entropy(model(x), y, reduction="sum")
            grads = torch.autograd.grad(loss, [parameters[n] for n in names], allow_unused=True)
            for name, grad in zip(names, grads):
                if grad is not None:
                    fisher[name] += grad.detach() ** 2
    finally:
        for module, training in modes.items():
            module.training = training
    return {n: f / len(data[1]) for n, f in fisher.items()}


def per_example_fisher(model: nn.Module, data: Data, batch_size: int, names: Sequence[str]) -> dict[str, torch.Tensor]:
    """The textbook empirical Fisher (mean squared per-example gradients), `regularizers.diagonal_fisher`."""
    full = diagonal_fisher(model, tensor_batches(*data, batch_size, seed=0, shuffle=False), "empirical")
    return {n: full[n] for n in names}


FISHERS = {"code": batch_summed_fisher, "per_example": per_example_fisher}


def fisher_information(model: nn.Module, data: Data, settings: Settings) -> dict[str, torch.Tensor]:
    """The Fisher of `settings.ewc_fisher` over the model's conv and linear parameters (`data` moved to the
    model's device)."""
    on_device = tuple(tensor.to(device_of(model)) for tensor in data)
    return FISHERS[settings.ewc_fisher](model, on_device, settings.batch_size, regularised_names(model))


# ---------------------------------------------------------------------------------------------- fitting

def accuracy(model: nn.Module, data: Data, batch_size: int = 500, device: str = "cpu") -> float:
    """Top-1 accuracy of `model` (eval mode) on `data`."""
    ranked, targets = predict_ranked(model, tensor_batches(*data, batch_size, seed=0, shuffle=False), top_k(1), device)
    return float(np.mean(ranked[:, 0] == targets))


class AugmentedBatches:
    """Training batches whose images are augmented afresh every epoch (`shifts.augment`'s "paper" reading:
    App. A.2's flips, crops and rotations up to 10 degrees), seeded by `seed` and the epoch."""

    def __init__(self, batches, seed: int) -> None:
        self.batches, self.seed, self.epoch = batches, seed, 0

    def __len__(self) -> int:
        return len(self.batches)

    def __iter__(self) -> Iterator[tuple[torch.Tensor, torch.Tensor]]:
        rng = np.random.RandomState(self.seed + self.epoch)
        self.epoch += 1
        for inputs, targets in self.batches:
            images = inputs.permute(0, 2, 3, 1).numpy().astype(np.uint8)  # the inputs hold integers 0..255
            augmented = np.stack([augment(image, rng, "paper") for image in images])
            yield torch.from_numpy(as_inputs(augmented)), targets


# Training-time augmentation: "none" as the code runs (its transforms are bypassed), "paper" as App. A.2 says.
AUGMENTATIONS: dict[str, Callable] = {"none": lambda batches, seed: batches, "paper": AugmentedBatches}


class _Stop(Exception):
    """Raised by `EarlyStopping` to end `lib.train.loop.train`."""


class EarlyStopping:
    """Keeps the best-validation state (epoch 0 included; the earlier epoch wins a tie) and stops once the
    accuracy has not improved on the previous epoch's for more than `patience` epochs in a row."""

    def __init__(self, model: nn.Module, valid: Data, patience: int, device: str) -> None:
        self.valid, self.patience, self.device = valid, patience, device
        self.previous = self.best = accuracy(model, valid, device=device)
        self.state, self.epoch, self.streak = copy.deepcopy(model.state_dict()), 0, 0

    def __call__(self, epoch: int, model: nn.Module) -> None:
        value = accuracy(model, self.valid, device=self.device)
        if value > self.best:
            self.best, self.epoch, self.state = value, epoch, copy.deepcopy(model.state_dict())
        self.streak = self.streak + 1 if value <= self.previous else 0
        self.previous = value
        if self.streak > self.patience:
            raise _Stop


@dataclass
class Fitted:
    model: nn.Module
    valid_accuracy: float
    epoch: int
    hyper: Hyper | None = None
    extra: dict = field(default_factory=dict)


def fit(model: nn.Module, batches, valid: Data, hyper: Hyper, settings: Settings, seed: int,
        objective: Objective = erm_objective, penalties: Sequence[Penalty] = ()) -> Fitted:
    """Train `model` in place from its current weights (one grid point), on `settings.device`, and load the best
    epoch's state."""
    model.to(settings.device)  # before the weight penalty and the optimiser take its parameters
    trainable = [p for p in model.parameters() if p.requires_grad]
    decay = weight_penalty(model, hyper.weight_decay)

    def loss(module: nn.Module, inputs: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        total = objective(module, inputs, targets, hyper.dropout) + decay.penalty(module)
        for penalty in penalties:
            total = total + penalty(module)
        return total

    batches = AUGMENTATIONS[settings.augmentation](batches, seed)
    stopper = EarlyStopping(model, valid, settings.patience, settings.device)
    config = TrainConfig(epochs=settings.max_epochs, batch_size=settings.batch_size, base_lr=hyper.lr,
                         reference_batch=settings.batch_size, optimizer="adamw", weight_decay=0.0,
                         seed=seed, device=settings.device, schedule="constant")
    if trainable:
        try:
            train(model, batches, config, groups=[{"params": trainable, "weight_decay": 0.0}], loss=loss,
                  on_epoch_end=stopper)
        except _Stop:
            pass
    model.load_state_dict(stopper.state)
    return Fitted(model, stopper.best, stopper.epoch, hyper)


def select(initial: nn.Module, grid: Sequence[Hyper], fit_one: Callable[[nn.Module, Hyper], Fitted]) -> Fitted:
    """Fit a copy of `initial` at every grid point; the best validation accuracy wins (the first on a tie)."""
    best = None
    for hyper in grid:
        fitted = fit_one(copy.deepcopy(initial), hyper)
        if best is None or fitted.valid_accuracy > best.valid_accuracy:
            best = fitted
    if best is None:
        raise ValueError("an empty hyper-parameter grid")
    return best


def without_weight_decay(grid: Sequence[Hyper]) -> list[Hyper]:
    """The grid's distinct (lr, dropout) points with no pull to zero (EWC and the pulls to previous weights
    replace it; their coefficients take the weight-decay axis's place)."""
    return list(dict.fromkeys(Hyper(h.lr, 0.0, h.dropout) for h in grid))


def _erm_batches(data: Data, settings: Settings, seed: int):
    return tensor_batches(*data, settings.batch_size, seed)


# ------------------------------------------------------------------------------------ side and joint

def reinitialised(module: nn.Module) -> nn.Module:
    """A copy of `module` with every sub-module's parameters (and BatchNorm statistics) reset."""
    fresh = copy.deepcopy(module)
    for sub in fresh.modules():
        if hasattr(sub, "reset_parameters"):
            sub.reset_parameters()
    return fresh


def one_layer_side(block: nn.Module, sample: torch.Tensor) -> nn.Module:
    """A 3×3 conv (no bias) + BN mapping the block's input to its output shape (stride = size ratio)."""
    was_training = block.training
    block.eval()
    with torch.no_grad():
        out = block(sample)
    block.train(was_training)
    stride = sample.shape[-1] // out.shape[-1]
    conv = nn.Conv2d(sample.shape[1], out.shape[1], 3, stride, 1, bias=False)
    return nn.Sequential(conv, nn.BatchNorm2d(out.shape[1])).to(sample.device)


class SideTunedNet(nn.Module):
    """A `SeqToFinalNet`'s stem, blocks and head plus side modules added step by step: at step t a block's
    output is B(x) + Σ_{j ≤ t} S_j(x) (and, where a step has them, likewise for the stem and head). `side_scale`
    multiplies the newest step's side modules' outputs: 1 in training and evaluation; s along the interpolation
    path from step t − 1 to step t (the official code scales step t's side modules by s, `interpolation_paths`)."""

    def __init__(self, base: SeqToFinalNet, image_size: int) -> None:
        super().__init__()
        self.stem, self.blocks, self.head = base.stem, base.blocks, base.head
        self.image_size = image_size
        self.sides = nn.ModuleList()
        self.side_scale = 1.0
        # Block-sized sides are fresh copies of these, taken now: a copy of a block after `freeze` would keep
        # its frozen parameters and BatchNorm hooks (a plain list, so not part of the model's parameters).
        self.block_templates = [copy.deepcopy(b) for b in base.blocks]

    def block_inputs(self) -> list[torch.Tensor]:
        """One sample input of every block (for sizing the side modules)."""
        was_training = self.training
        self.eval()
        samples = []
        with torch.no_grad():
            out = self.stem(torch.zeros(1, 3, self.image_size, self.image_size, device=device_of(self.stem)))
            for block in self.blocks:
                samples.append(out)
                out = block(out)
        self.train(was_training)
        return samples

    def add_sides(self, kind: str, stem_and_head: bool) -> nn.ModuleDict:
        """Append one step's side modules: `kind` "layer" (ST-1) or "block" (ST-B); with `stem_and_head`
        also re-initialised copies of the stem and head (the joint side models)."""
        if kind == "layer":
            blocks = [one_layer_side(b, s) for b, s in zip(self.blocks, self.block_inputs())]
        elif kind == "block":
            blocks = [reinitialised(b) for b in self.block_templates]
        else:
            raise ValueError(f"side kind must be 'layer' or 'block', got {kind!r}")
        sides = nn.ModuleDict({"blocks": nn.ModuleList(blocks)})
        if stem_and_head:
            sides["stem"], sides["head"] = reinitialised(self.stem), reinitialised(self.head)
        self.sides.append(sides)
        return sides

    def forward(self, x: torch.Tensor, dropout: float = 0.0, step: int | None = None) -> torch.Tensor:
        sides = list(self.sides)[:step]
        scaled = list(zip(sides, [1.0] * (len(sides) - 1) + [self.side_scale]))  # the newest sides by side_scale
        dropping = self.training and dropout > 0
        out = self.stem(x)
        for side, scale in scaled:
            out = out + scale * side["stem"](x) if "stem" in side else out
        for index, block in enumerate(self.blocks):
            if dropping:
                out = F.dropout(out, dropout)
            inputs, out = out, block(out)
            for side, scale in scaled:
                out = out + scale * side["blocks"][index](inputs)
        if dropping:
            out = F.dropout(out, dropout)
        logits = self.head(out)
        for side, scale in scaled:
            logits = logits + scale * side["head"](out) if "head" in side else logits
        return logits


class JointModel(nn.Module):
    """A separate model per step; `forward(x, dropout, step)` runs step `step`'s (default: the final)."""

    def __init__(self, models: Sequence[nn.Module]) -> None:
        super().__init__()
        self.models = nn.ModuleList(models)

    def forward(self, x: torch.Tensor, dropout: float = 0.0, step: int | None = None) -> torch.Tensor:
        return self.models[-1 if step is None else step](x, dropout)


# How ST/SST start the final step's stem and head: fresh (the code) or from the frozen ones.
STEM_HEAD_INIT = {"random": reinitialised, "previous": copy.deepcopy}


def freeze(module: nn.Module) -> None:
    """No gradients and fixed BatchNorm statistics for every parameter of `module`."""
    for parameter in module.parameters():
        parameter.requires_grad_(False)
    set_batchnorm_frozen(module, True)


# ---------------------------------------------------------------------------------------------- methods

@dataclass(frozen=True)
class Context:
    """What a method run needs: the data, the architecture, the settings, the seed and the image size, and
    where the stages several methods start from are kept (`stages`; None: each run trains its own)."""

    data: SequenceTensors
    architecture: str
    settings: Settings
    seed: int
    image_size: int
    stages: StageCache | None = None

    def new_model(self, offset: int = 0) -> SeqToFinalNet:
        """A freshly initialised model (seeded by the run's seed + `offset`) on the settings' device."""
        torch.manual_seed(self.seed + offset)
        return build(self.architecture, self.data.num_classes).to(self.settings.device)

    @cached_property
    def data_digest(self) -> str:
        """A hash of every tensor of the data (shapes, dtypes and values)."""
        digest = hashlib.sha256(str(self.data.num_classes).encode())
        for tensor in (t for split in (*self.data.train, *self.data.valid, self.data.test) for t in split):
            digest.update(f"{tuple(tensor.shape)}{tensor.dtype}".encode())
            digest.update(tensor.contiguous().numpy().tobytes())
        return digest.hexdigest()

    def stage(self, name: str, compute: Callable[[], Fitted]) -> Fitted:
        """`compute()`, an ERM fit from a fresh model that several runs start from, trained once per (stage `name`,
        data, architecture, settings but those no ERM fit reads, seed) in `stages` and read back by every later
        run that needs it, as a new model. The global random state is left as `compute()` leaves it, so what a
        run draws next does not depend on whether the stage was trained or read back. Without
        `NOT_READ_BY_ERM_FITS` in the key, the analysis runs, whose joint-model and EWC settings differ from the
        study's, share its stages."""
        if self.stages is None:
            return compute()
        settings = {k: v for k, v in asdict(self.settings).items() if k not in NOT_READ_BY_ERM_FITS}
        spec = {"stage": name, "architecture": self.architecture, "seed": self.seed, "settings": settings,
                "data": self.data_digest}
        stored = self.stages.get(spec, lambda: _stored_stage(compute(), self.settings.device))
        model = self.new_model()  # its draws are undone by the random state restored next
        model.load_state_dict(stored["state"])
        torch.set_rng_state(stored["rng"])
        if "cuda_rng" in stored:
            torch.cuda.set_rng_state(stored["cuda_rng"], torch.device(self.settings.device))
        hyper = Hyper(*stored["hyper"]) if stored["hyper"] else None
        return Fitted(model, stored["valid_accuracy"], stored["epoch"], hyper)


# The fields of `Settings` that an ERM fit (`_select_erm`: the grid, `fit`, the batches, `new_model`) does not
# read. Every other field is part of a stage's key, a field added later included.
NOT_READ_BY_ERM_FITS = ("irm_penalty", "joint", "final_loss_weight", "adjacent_grid", "ewc_grid", "ewc_fisher",
                        "linear_decays", "exponential_decays", "pretrain_includes_final", "side_stem_head_init")


def _stored_stage(fitted: Fitted, device: str) -> dict:
    """A stage's fit as `StageCache` keeps it: the state on the CPU, the selection's numbers and the global
    random state (the CPU's, and the GPU's when it ran there) as the fit left it."""
    if fitted.extra:
        raise ValueError(f"a stage keeps no extra results, got {sorted(fitted.extra)}")
    hyper = astuple(fitted.hyper) if fitted.hyper is not None else None
    stored = {"state": {k: v.detach().cpu() for k, v in fitted.model.state_dict().items()},
              "valid_accuracy": float(fitted.valid_accuracy), "epoch": int(fitted.epoch), "hyper": hyper,
              "rng": torch.get_rng_state()}
    if torch.device(device).type == "cuda":
        stored["cuda_rng"] = torch.cuda.get_rng_state(torch.device(device))
    return stored


def _select_erm(ctx: Context, initial: nn.Module, train_data: Data, valid: Data,
                grid: Sequence[Hyper] | None = None, penalties: Sequence[Penalty] = ()) -> Fitted:
    return select(initial, ctx.settings.grid() if grid is None else grid,
                  lambda m, h: fit(m, _erm_batches(train_data, ctx.settings, ctx.seed), valid, h, ctx.settings,
                                   ctx.seed, penalties=penalties))


def _multi_step(ctx: Context, kind: str, last: int, valid: Data) -> Fitted:
    """ERM on the concatenation, or IRM / DRO over the steps 0..`last`, selected on `valid`."""
    steps = ctx.data.train[:last + 1]
    if kind == "ERM":
        return _select_erm(ctx, ctx.new_model(), concatenate(steps), valid)
    objective = {"IRM": irm_objective(ctx.settings.irm_penalty), "DRO": dro_objective}[kind]
    return select(ctx.new_model(), ctx.settings.grid(),
                  lambda m, h: fit(m, StepBatches(steps, ctx.settings.batch_size, ctx.seed), valid, h,
                                   ctx.settings, ctx.seed, objective))


def final_only(ctx: Context) -> Fitted:
    """Baseline (and, on the oracle's sequence, Oracle): ERM on the final step."""
    final = ctx.data.final_index
    return _select_erm(ctx, ctx.new_model(), ctx.data.train[final], ctx.data.valid[final])


def all_steps(kind: str) -> Callable[[Context], Fitted]:
    """ERM / IRM / DRO on all steps, selected on the final validation split."""
    return lambda ctx: _multi_step(ctx, kind, ctx.data.final_index, ctx.data.valid[ctx.data.final_index])


def pretrain(ctx: Context, kind: str) -> Fitted:
    """ERM / IRM / DRO on the historical steps (I-FT, D-FT: all steps under the code's reading),
    selected on the combined historical validation set. ERM's is a stage (`Context.stage`): FT, LP-FT, ST and
    Table 15's ablations start from it; IRM's and DRO's are I-FT's and D-FT's alone."""
    include_final = kind != "ERM" and ctx.settings.pretrain_includes_final
    last = ctx.data.final_index if include_final else ctx.data.final_index - 1
    fit = lambda: _multi_step(ctx, kind, last, concatenate(ctx.data.valid[:ctx.data.final_index]))
    return ctx.stage("pretrain ERM", fit) if kind == "ERM" else fit()


def source_erm(ctx: Context) -> Fitted:
    """ERM on the source step, selected on its validation split: where SFT, EWC and SST start (a stage)."""
    return ctx.stage("source ERM", lambda: _select_erm(ctx, ctx.new_model(), ctx.data.train[0], ctx.data.valid[0]))


def _fine_tune(ctx: Context, model: nn.Module, step: int, grid: Sequence[Hyper] | None = None,
               penalties: Sequence[Penalty] = ()) -> Fitted:
    return _select_erm(ctx, model, ctx.data.train[step], ctx.data.valid[step], grid, penalties)


def fine_tune_after(kind: str) -> Callable[[Context], Fitted]:
    """FT, I-FT, D-FT: pre-training of `kind`, then fine-tuning every layer on the final step."""
    return lambda ctx: _fine_tune(ctx, pretrain(ctx, kind).model, ctx.data.final_index)


def head_name(model: SeqToFinalNet) -> str:
    """The qualified name of the model's last linear layer (the code's `fc`)."""
    return [name for name, module in model.named_modules() if isinstance(module, nn.Linear)][-1]


def fine_tune_towards_previous(init: str) -> Callable[[Context], Fitted]:
    """Table 15's ablations: fine-tuning on the final step with `λ Σ (θ − θ_prev)²` towards the ERM
    pre-trained weights in place of the pull to zero (`--regularization=previous`; λ over the weight-decay
    grid), starting from those weights (`init="previous"`) or from a fresh random model ("random")."""
    def run(ctx: Context) -> Fitted:
        previous = pretrain(ctx, "ERM").model
        start = previous if init == "previous" else ctx.new_model(offset=1)
        best = None
        for coefficient in ctx.settings.weight_decays:
            anchor = QuadraticAnchor({n: p.detach().clone() for n, p in previous.named_parameters()
                                      if n in set(regularised_names(previous))}, coefficient)
            fitted = _fine_tune(ctx, start, ctx.data.final_index, without_weight_decay(ctx.settings.grid()),
                                [anchor.penalty])
            if best is None or fitted.valid_accuracy > best.valid_accuracy:
                best = fitted
                best.extra["previous"] = coefficient
        return best
    return run


def lp_ft_stages_of(model: SeqToFinalNet) -> tuple:
    """LP-FT's two stages for `model` (`lib.finetune.lp_ft`): the last linear layer alone, BatchNorm
    statistics updating (the code calls `model.train()`), then every layer."""
    return lp_ft_stages(model, head=head_name(model), lp_update_bn_stats=True)


def lp_ft(ctx: Context) -> Fitted:
    """LP-FT: ERM on the history, a full grid on the head alone, then a full grid on all layers."""
    return lp_ft_from(ctx, pretrain(ctx, "ERM").model)


def lp_ft_from(ctx: Context, model: nn.Module) -> Fitted:
    """LP-FT's two stages on the final step from `model` (changed in place: pass a copy to keep it)."""
    probe, full = lp_ft_stages_of(model)
    probe.apply(model)
    probed = _fine_tune(ctx, model, ctx.data.final_index)
    full.apply(probed.model)
    return _fine_tune(ctx, probed.model, ctx.data.final_index)


def _side_step(ctx: Context, model: SideTunedNet, kind: str, step: int) -> Fitted:
    """Freeze everything, add one step's side modules and a fresh stem and head pulled to the old ones
    (the copies are made before freezing, so that they carry no frozen-BatchNorm hooks)."""
    renew = STEM_HEAD_INIT[ctx.settings.side_stem_head_init]
    pulled = {n: p.detach().clone() for n, p in model.named_parameters() if n.startswith(("stem.", "head."))}
    stem, head = renew(model.stem), renew(model.head)
    freeze(model)
    model.stem, model.head = stem, head
    for module in (model.stem, model.head):
        set_trainable(module, lambda _name: True)
    model.add_sides(kind, stem_and_head=False)
    best = None
    for coefficient in ctx.settings.adjacent_grid:
        anchor = QuadraticAnchor(pulled, coefficient)
        fitted = _fine_tune(ctx, model, step, penalties=[anchor.penalty])
        if best is None or fitted.valid_accuracy > best.valid_accuracy:
            best = fitted
            best.extra["adjacent"] = coefficient
    return best


def side_tune(kind: str) -> Callable[[Context], Fitted]:
    """ST-1 / ST-B: ERM on the history, then side modules at the final step."""
    def run(ctx: Context) -> Fitted:
        return side_tune_from(ctx, pretrain(ctx, "ERM").model, kind)
    return run


def side_tune_from(ctx: Context, model: nn.Module, kind: str) -> Fitted:
    """ST-1 / ST-B's final step on `model` (whose modules it freezes and shares: pass a copy to keep it)."""
    return _side_step(ctx, SideTunedNet(model, ctx.image_size), kind, ctx.data.final_index)


# Learning-rate schedules of SFT: name -> (settings, T) -> the lr sequences of steps 1..T to choose from.
LR_SCHEDULES: dict[str, Callable[[Settings, int], list[tuple[float, ...] | None]]] = {
    "none": lambda settings, n: [None],  # the lr grid at every step
    "linear": lambda settings, n: [tuple(start - t * step for t in range(n)) for start, step in settings.linear_decays],
    "exponential": lambda settings, n: [tuple(start * factor ** t for t in range(n))
                                        for start, factor in settings.exponential_decays],
}


def lr_sequences(settings: Settings, schedule: str, n_steps: int) -> list[tuple[float, ...] | None]:
    """The learning rates of the fine-tuning steps 1..T for each candidate of a schedule; None = the
    lr grid at every step ("none")."""
    if schedule not in LR_SCHEDULES:
        raise ValueError(f"schedule must be one of {sorted(LR_SCHEDULES)}, got {schedule!r}")
    return LR_SCHEDULES[schedule](settings, n_steps)


def sequential(schedule: str = "none", ewc: bool = False) -> Callable[[Context], Fitted]:
    """SFT (with an lr schedule) and EWC: ERM on the source, then fine-tuning at every step."""
    def run(ctx: Context) -> Fitted:
        source = source_erm(ctx)
        best = None
        for lrs in lr_sequences(ctx.settings, schedule, ctx.data.final_index):
            for coefficient in (ctx.settings.ewc_grid if ewc else (None,)):
                fitted, anchors = source, []
                for step in range(1, ctx.data.final_index + 1):
                    if ewc:
                        fisher = fisher_information(fitted.model, ctx.data.train[step - 1], ctx.settings)
                        anchors.append(pull_to(fitted.model, list(fisher), coefficient, fisher))
                    grid = ctx.settings.grid(None if lrs is None else (lrs[step - 1],))
                    if ewc:  # the code's EWC mode has no L2-to-zero term
                        grid = without_weight_decay(grid)
                    fitted = _fine_tune(ctx, fitted.model, step, grid, [a.penalty for a in anchors])
                if best is None or fitted.valid_accuracy > best.valid_accuracy:
                    best = fitted
                    best.extra.update(lrs=lrs, ewc=coefficient)
        return best
    return run


def sequential_side_tune(kind: str) -> Callable[[Context], Fitted]:
    """SST-1 / SST-B: ERM on the source, then a new side module per block at every step."""
    def run(ctx: Context) -> Fitted:
        model = SideTunedNet(source_erm(ctx).model, ctx.image_size)
        fitted = None
        for step in range(1, ctx.data.final_index + 1):
            fitted = _side_step(ctx, model, kind, step)
            model = fitted.model
        return fitted
    return run


def _joint_fit(ctx: Context, model: nn.Module, adjacent: Sequence[float]) -> Fitted:
    settings, n_steps = ctx.settings, len(ctx.data.train)
    objective = joint_objective(settings.final_loss_weight, n_steps)
    valid = ctx.data.valid[ctx.data.final_index]
    best = None
    for coefficient in adjacent:
        penalties = [adjacent_penalty(coefficient)] if coefficient else []
        batches = StepBatches(ctx.data.train, settings.batch_size, ctx.seed)
        fitted = fit(copy.deepcopy(model), batches, valid, settings.joint, settings, ctx.seed, objective, penalties)
        if best is None or fitted.valid_accuracy > best.valid_accuracy:
            best = fitted
            best.extra["adjacent"] = coefficient
    return best


def joint_model(ctx: Context) -> Fitted:
    """JM: a randomly initialised model per step, adjacent steps pulled together."""
    model = JointModel([ctx.new_model(offset) for offset in range(len(ctx.data.train))])
    return _joint_fit(ctx, model, ctx.settings.adjacent_grid)


def joint_side_tune(kind: str) -> Callable[[Context], Fitted]:
    """JST-1 / JST-B: base modules at step 0, additive side modules (stem and head too) at every later step."""
    def run(ctx: Context) -> Fitted:
        model = SideTunedNet(ctx.new_model(), ctx.image_size)
        for _ in range(ctx.data.final_index):
            model.add_sides(kind, stem_and_head=True)
        return _joint_fit(ctx, model, (0.0,))
    return run


@dataclass(frozen=True)
class Run:
    """A method run: its Table 1 column, the sequence it reads ("sequence" or "oracle") and its procedure."""

    column: str
    procedure: Callable[[Context], Fitted]
    sequence: str = "sequence"


RUNS: dict[str, Run] = {
    "Oracle": Run("Oracle", final_only, "oracle"),
    "Baseline": Run("Baseline", final_only),
    "ERM": Run("ERM", all_steps("ERM")),
    "IRM": Run("IRM", all_steps("IRM")),
    "DRO": Run("DRO", all_steps("DRO")),
    "FT": Run("FT", fine_tune_after("ERM")),
    "LP-FT": Run("LP-FT", lp_ft),
    "I-FT": Run("I-FT", fine_tune_after("IRM")),
    "D-FT": Run("D-FT", fine_tune_after("DRO")),
    "ST-1": Run("ST-1", side_tune("layer")),
    "ST-B": Run("ST-B", side_tune("block")),
    "SFT": Run("SFT", sequential("none")),
    "SFT-linear": Run("SFT", sequential("linear")),
    "SFT-exponential": Run("SFT", sequential("exponential")),
    "EWC": Run("EWC", sequential("none", ewc=True)),
    "SST-1": Run("SST-1", sequential_side_tune("layer")),
    "SST-B": Run("SST-B", sequential_side_tune("block")),
    "JM": Run("JM", joint_model),
    "JST-1": Run("JST-1", joint_side_tune("layer")),
    "JST-B": Run("JST-B", joint_side_tune("block")),
    # Table 15's fine-tuning ablations (its rows 0 and 1 are Baseline and FT; rows 4-7 re-run 0-3 through
    # the code's frozen 2-step joint model, the same computation)
    "FT-reg-previous": Run("Fine-tuning w/ reg towards previous", fine_tune_towards_previous("previous")),
    "FT-init-ablated-reg-previous": Run("Fine-tuning w/ init ablated + reg to prev", fine_tune_towards_previous("random")),
}


# -------------------------------------------------------------------------------------- weight paths

def _code_fixed_keys(model: nn.Module) -> set[str]:
    """State keys the code's interpolation copies from the initial model: BatchNorm parameters and
    statistics, and ResNet downsample convolutions."""
    keys = set()
    for name, module in model.named_modules():
        if isinstance(module, nn.modules.batchnorm._BatchNorm) or ".downsample." in f".{name}.":
            keys.update(f"{name}.{key}" for key in module.state_dict(keep_vars=True) if "." not in key)
    return keys


def interpolated_state(model: nn.Module, start: dict[str, torch.Tensor], end: dict[str, torch.Tensor], s: float,
                       reading: str = "code") -> dict[str, torch.Tensor]:
    """The state (1 − s)·start + s·end of `model`'s architecture. `reading="code"`: for 0 < s < 1 the
    BatchNorm and downsample entries stay at `start` (the official `interpolate_weights`); "all":
    every floating entry is interpolated (`lib.finetune.interpolation.interpolate`)."""
    if reading not in ("code", "all"):
        raise ValueError(f"reading must be 'code' or 'all', got {reading!r}")
    state = interpolate(start, end, s)
    if reading == "code" and 0 < s < 1:
        state.update({key: start[key].clone() for key in _code_fixed_keys(model)})
    return state


def average_states(states: Sequence[dict[str, torch.Tensor]]) -> dict[str, torch.Tensor]:
    """The arithmetic mean of state dicts (e.g. the sequential models' weights), `uniform_soup`."""
    return uniform_soup(states)


def run_method(name: str, data: SequenceTensors, architecture: str, settings: Settings, seed: int,
               image_size: int, stages: StageCache | None = None) -> Fitted:
    """Run one method of `RUNS` (the oracle's data must be the oracle sequence's; `stages`: `Context.stages`)."""
    if name not in RUNS:
        raise ValueError(f"unknown method {name!r}; known: {list(RUNS)}")
    torch.manual_seed(seed)
    return RUNS[name].procedure(Context(data, architecture, settings, seed, image_size, stages))

