"""What computes ImageNet-RIB's runs (imports torch): models, data, fine-tuning and evaluation.

`BenchmarkRunner` is the compute half of a `benchmark.Benchmark`, which makes one (`Benchmark.runner`)
only when a run is computed: it pretrains (embedded, weights cached) or loads (registry) the models,
opens the suite's data, fine-tunes with each method and evaluates on every evaluation set. A notebook
reading stored runs never imports it.
"""

from __future__ import annotations

import copy
import functools
from pathlib import Path
from typing import TYPE_CHECKING, Callable

import numpy as np
import pandas as pd
import torch
from torch import nn

from ..atomic import atomic_write, load_or_make
from ..data.domains import STYLE_SHIFTS
from ..data.transforms import eval_transform
from ..evaluate.frames import prediction_frame
from ..evaluate.predictions import predict_ranked
from ..finetune.methods import BestEpoch, EpochHook, FisherSource, MethodSettings, fisher_from, post_hoc, train_method
from ..finetune.templates import TEMPLATE_SETS
from ..finetune.zeroshot import tokenize_prompts
from ..models import clip as clip_models
from ..models.registry import load_pretrained, spec as model_spec
from ..models.standins import build_standin
from ..progress import progress
from ..store import run_key
from ..train.config import TrainConfig
from ..train.loop import Batches, tensor_batches, train
from .benchmark import CLIP_REGIME, PRETRAINED
from .methods import METHODS, POST_HOC
from .suite_data import EmbeddedSuite, RegistrySuite

if TYPE_CHECKING:
    from .benchmark import Benchmark

NOISE_SIGMA = 0.1
Suite = EmbeddedSuite | RegistrySuite


class BenchmarkRunner:
    """Computes the runs of a `Benchmark` (its settings `s`, weights folder, run configs and the
    methods whose weights are kept)."""

    def __init__(self, bench: Benchmark) -> None:
        self.s, self.weights_dir, self.finetune_datasets = bench.s, bench.weights_dir, bench.finetune_datasets
        self.run_config, self._ingredients = bench.run_config, bench._ingredients

    @functools.cached_property
    def suite(self) -> Suite:
        """The data. The registry suite opens every dataset here (DatasetMissingError names all missing ones)."""
        s = self.s
        if s.source == "embedded":
            return EmbeddedSuite(s.pretrain_domain, s.suite, s.class_subsets, s.image_size)
        return RegistrySuite(s.suite, s.reference, s.objectnet_evaluation, s.imagenet_c_finetune_severities,
                             s.data_root or None, s.workers, finetune_only=self.finetune_datasets)

    def compute(self, config: dict, model: Callable[[], nn.Module]) -> pd.DataFrame:
        regime, seed, method, name = config["regime"], config["seed"], config["method"], config["finetune_dataset"]
        pretrained = model()
        suite = self.suite_for(regime, pretrained)
        if method == PRETRAINED:
            return self._evaluate(pretrained, suite)
        if method in POST_HOC:
            return self._evaluate(self._finetuned(method, regime, seed, name, pretrained, suite), suite)
        hook = self._epoch_hook(name, suite, seed)
        trained = self._train(method, regime, seed, name, pretrained, suite, hook)
        if method in self._ingredients:  # kept for WiSE-FT and the soup
            self._store_weights(self.run_config(regime, seed, method, name), trained)
        if isinstance(hook, EveryEpoch):
            return pd.concat(hook.frames, ignore_index=True)
        frame = self._evaluate(trained, suite)
        return frame.assign(selected_epoch=hook.epoch) if isinstance(hook, BestEpoch) else frame

    def _epoch_hook(self, name: str, suite: Suite, seed: int) -> EpochHook | None:
        """Per-epoch evaluation (Fig. 13), best-epoch selection on the held-out split (App. E), or none."""
        if self.s.evaluate_every_epoch:
            return EveryEpoch(lambda model: self._evaluate(model, suite, release=False))
        if self.s.validation_fraction > 0:
            batch = self.s.config("finetune", seed).batch_size
            held_out = suite.validation_batches(name, batch, seed, self.s.training_split)
            return BestEpoch(lambda model: self._accuracy(model, held_out, suite, name))
        return None

    def _accuracy(self, model: nn.Module, batches: Batches, suite: Suite, name: str) -> float:
        """Accuracy (%) of `model` on `batches` of dataset `name` (its mask applied); the model stays put."""
        ranked, targets = self._ranked(model, batches, suite, name)
        return 100.0 * float((ranked[:, 0] == targets).mean())

    def _ranked(self, model: nn.Module, batches: Batches, suite: Suite, name: str) -> tuple[np.ndarray, np.ndarray]:
        """Top-1 classes and targets of every item of `batches` of dataset `name` (the shared runner)."""
        return predict_ranked(model, batches, suite.ranker(name), self.s.device, amp=self.s.config("finetune", 0).amp)

    # -- models ----------------------------------------------------------------------------------
    def pretrained(self, regime: str, seed: int) -> nn.Module:
        """The pretrained classifier: trained under `regime` (embedded, cached) or loaded from the registry;
        a CLIP regime classifies through its zero-shot head over the pretraining classes."""
        s = self.s
        if s.source == "registry":
            if s.zero_shot(regime):
                return clip_models.zero_shot_classifier(
                    load_pretrained(regime), clip_models.tokenizer_for(regime), clip_models.imagenet_class_names(),
                    TEMPLATE_SETS[s.zero_shot_templates], s.zero_shot_text_tower).eval()
            return load_pretrained(regime).eval()
        spec = {"pretrain": regime, "seed": seed, "architecture": s.architecture, "image_size": s.image_size,
                "pretrain_domain": s.pretrain_domain, "config": s.pretrain,
                "augment_shifts": s.augment_shifts if regime == "augmented" else None}
        if regime == CLIP_REGIME:
            spec["architecture"] = "tiny_clip"
            clip, tokenizer = clip_models.tiny_clip(s.image_size, seed)
            clip.load_state_dict(self._cached(spec, lambda: self._pretrain_clip(seed)))
            return clip_models.zero_shot_classifier(clip, tokenizer, clip_models.DIGIT_CLASS_NAMES,
                                                    TEMPLATE_SETS[s.zero_shot_templates], s.zero_shot_text_tower).eval()
        model = self._blank(seed)
        model.load_state_dict(self._cached(spec, lambda: self._pretrain(regime, seed)))
        return model.eval()

    def finetuned(self, method: str, regime: str, seed: int, name: str) -> nn.Module:
        """The model after `method` on dataset `name` (weights cached where the post-hoc methods need them),
        ready to evaluate on the suite."""
        pretrained = self.pretrained(regime, seed)
        suite = self.suite_for(regime, pretrained)
        return self._finetuned(method, regime, seed, name, pretrained, suite).eval()

    def trained_afresh(self, method: str, regime: str, seed: int, name: str, hook: EpochHook) -> nn.Module:
        """A trained `method` on dataset `name`, trained again (nothing read from or written to the caches) with
        `hook` seeing every epoch: Fig. 14's CKA over the epochs of FT."""
        pretrained = self.pretrained(regime, seed)
        return self._train(method, regime, seed, name, pretrained, self.suite_for(regime, pretrained), hook).eval()

    def _blank(self, seed: int) -> nn.Module:
        return build_standin(self.s.architecture, num_classes=self.suite.pretraining.num_classes,
                             image_size=self.s.image_size, in_chans=1, seed=seed)

    def _pretrain(self, regime: str, seed: int) -> nn.Module:
        domain, config = self.suite.pretraining, self.s.config("pretrain", seed)
        batches = tensor_batches(domain.train_images, domain.train_labels, config.batch_size, seed)
        if regime == "augmented":  # fresh augmented views on every epoch
            batches = AugmentedBatches(batches, style_augment(self.s.augment_shifts, seed))
        model = self._blank(seed)
        train(model, batches, config)
        return model

    def _pretrain_clip(self, seed: int) -> nn.Module:
        """The embedded CLIP regime: a tiny CLIP trained with the CLIP loss on clean digits and their captions."""
        domain, config = self.suite.pretraining, self.s.config("pretrain", seed)
        clip, tokenizer = clip_models.tiny_clip(self.s.image_size, seed)
        template = TEMPLATE_SETS[self.s.zero_shot_templates][0]
        clip_models.pretrain_clip(clip, tokenizer, domain.train_images, domain.train_labels,
                                  clip_models.DIGIT_CLASS_NAMES, template, config)
        return clip

    def suite_for(self, regime: str, model: nn.Module) -> Suite:
        """The suite read through the model's eval transform (registry); the embedded suite as is."""
        if self.s.source == "embedded":
            return self.suite
        row = model_spec(regime)
        inner = model.model if self.s.zero_shot(regime) else model  # the CLIP model under a zero-shot head
        return self.suite.with_transform(eval_transform(row.preprocess, inner, weights=row.pretrained))

    def _cached(self, spec: dict, make: Callable[[], nn.Module]) -> dict[str, torch.Tensor]:
        return self._cached_tensors(spec, lambda: _state(make()))

    def _cached_tensors(self, spec: dict, make: Callable[[], dict[str, torch.Tensor]]) -> dict[str, torch.Tensor]:
        """`make()`'s tensors (on the CPU), computed once per `spec` and kept in the weights folder."""
        return load_or_make(self._weights_path(spec), lambda path: torch.load(path, map_location="cpu"),
                            make, torch.save)

    def _weights_path(self, spec: dict) -> Path:
        return self.weights_dir / f"{run_key(spec)}.pt"

    def _store_weights(self, spec: dict, model: nn.Module) -> None:
        state = _state(model)
        atomic_write(self._weights_path(spec), lambda tmp: torch.save(state, tmp))

    def _finetuned(self, method: str, regime: str, seed: int, name: str, pretrained: nn.Module, suite: Suite) -> nn.Module:
        """The model after `method` on `name`, with the head of the evaluation suite: trained, or
        combined from cached weights (post-hoc)."""
        if method in POST_HOC:
            weights = {m: self._weights(m, regime, seed, name, pretrained, suite) for m in METHODS[method].ingredients}
            return post_hoc(METHODS[method], pretrained, weights, MethodSettings(**self.s.method_settings))
        if method not in self._ingredients:
            return self._train(method, regime, seed, name, pretrained, suite)
        model = copy.deepcopy(pretrained)
        model.load_state_dict(self._weights(method, regime, seed, name, pretrained, suite))
        return model

    def _weights(
        self, method: str, regime: str, seed: int, name: str, pretrained: nn.Module, suite: Suite
    ) -> dict[str, torch.Tensor]:
        """A trained method's weights, cached under the key of its run."""
        config = self.run_config(regime, seed, method, name)
        return self._cached(config, lambda: self._train(method, regime, seed, name, pretrained, suite))

    def _train(self, method: str, regime: str, seed: int, name: str, pretrained: nn.Module, suite: Suite,
               hook: EpochHook | None = None) -> nn.Module:
        """`method` on dataset `name`. A dataset with its own classes (StanfordCars) trains through a
        zero-shot head over them; the model returned classifies over the pretraining classes again."""
        config = self.s.config("finetune", seed)
        settings = MethodSettings(**self.s.method_settings)
        own_classes = suite.own_class_names(name)
        fisher = self._fisher(regime, seed, name if own_classes else "", suite, config, settings) if method == "EWC" else None
        start = pretrained
        if own_classes is not None:
            tokenizer = clip_models.tokenizer_for(regime)
            start = pretrained.with_class_tokens(tokenize_prompts(tokenizer, own_classes, TEMPLATE_SETS[self.s.zero_shot_templates]))
        trained = train_method(METHODS[method], start, suite.train_batches(name, config.batch_size, seed, self.s.training_split),
                               config, settings, suite.mask(name), fisher=fisher, epoch_hook=hook)
        return trained if own_classes is None else trained.with_class_tokens(pretrained.class_tokens)

    def _fisher(self, regime: str, seed: int, head: str, suite: Suite, config: TrainConfig,
                settings: MethodSettings) -> FisherSource:
        """EWC's Fisher of the pretrained model of `regime` and `seed` (through the zero-shot head of
        dataset `head`'s own classes, if any), computed once and cached beside the weights: it does not
        depend on the fine-tuning set, so the suite's EWC runs share it."""
        compute = fisher_from(suite.fisher_batches(settings.ewc_fisher_images, config.batch_size, seed), settings, config)
        spec = self.run_config(regime, seed, PRETRAINED, "") | {
            "fisher": {"labels": settings.ewc_fisher_labels, "images": settings.ewc_fisher_images,
                       "batch_size": config.batch_size}, "head": head}
        return lambda model: self._cached_tensors(spec, lambda: {n: f.cpu() for n, f in compute(model).items()})

    def _evaluate(self, model: nn.Module, suite: Suite, release: bool = True) -> pd.DataFrame:
        """Per-item predictions on every evaluation set; `release`: the model is left on the CPU (not
        during training)."""
        frames = []
        for name, evaluation in progress(suite.evaluation_sets().items(), desc="evaluation sets", unit="set"):
            ranked, targets = self._ranked(model, evaluation.batches, suite, name)
            frames.append(prediction_frame(targets, ranked, eval_dataset=name, part=evaluation.parts))
        if release:
            model.cpu()
        return pd.concat(frames, ignore_index=True)


def style_augment(shifts: list[str], seed: int) -> Callable[[torch.Tensor], torch.Tensor]:
    """A batch transform applying one random shift of `shifts` (or none) per image, then noise σ 0.1.

    With no shifts it adds the noise only."""
    generator = torch.Generator().manual_seed(seed)

    def apply(images: torch.Tensor) -> torch.Tensor:
        choice = torch.randint(0, len(shifts) + 1, (len(images),), generator=generator)
        out = images.clone()
        for index, shift in enumerate(shifts):
            chosen = choice == index + 1
            if chosen.any():
                out[chosen] = STYLE_SHIFTS[shift](images[chosen])
        return (out + NOISE_SIGMA * torch.randn(out.shape, generator=generator)).clamp(0.0, 1.0)

    return apply


def _state(model: nn.Module) -> dict[str, torch.Tensor]:
    """A CPU copy of `model`'s weights, as cached on disk."""
    return {k: v.detach().cpu().clone() for k, v in model.state_dict().items()}


class AugmentedBatches:
    """`batches` passed through `augment` afresh on every pass (re-iterable, with a length)."""

    def __init__(self, batches: Batches, augment: Callable[[torch.Tensor], torch.Tensor]) -> None:
        self.batches, self.augment = batches, augment

    def __len__(self) -> int:
        return len(self.batches)

    def __iter__(self):
        return ((self.augment(x), y) for x, y in self.batches)


class EveryEpoch:
    """Fig. 13's hook: evaluate the model on the suite after every epoch; the run is the last epoch's model."""

    def __init__(self, evaluate: Callable[[nn.Module], pd.DataFrame]) -> None:
        self.evaluate = evaluate
        self.frames: list[pd.DataFrame] = []

    def __call__(self, epoch: int, model: nn.Module) -> None:
        self.frames.append(self.evaluate(model).assign(epoch=epoch))

    def chosen(self, last: nn.Module) -> nn.Module:
        return last
