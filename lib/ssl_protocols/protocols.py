"""The protocol study's compute: the zoo's backbones, the datasets, and every protocol of one run
(kNN, linear probing, fine-tuning, few-shot fine-tuning), for `study.Study`, which holds the
settings and the plan of runs and imports this module only to compute one."""

from __future__ import annotations

import copy
import functools
import logging
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
import torch
from torch import nn

from ..atomic import load_or_make
from ..data.source import DataSource, EmbeddedSource, RegistrySource
from ..data.subsets import class_balanced_indices, per_class_count
from ..evaluate.features import extract_features
from ..evaluate.frames import prediction_frame
from ..evaluate.knn import knn_votes
from ..evaluate.predictions import predict_ranked, top_k
from ..evaluate.ranking import rank_classes
from ..models.standins import build_standin
from ..store import FeatureCache, run_key
from ..train.heads import Classifier, layer_decay_groups, set_drop_path
from ..train.loop import train
from ..train.pretext import pretrain
from ..train.probe import fit_linear_probe, probe_scores
from .study import FEWSHOT_FRACTIONS, PAPER, PROBE_PROTOCOLS, TOP_K, registry_pair, zoo_member

if TYPE_CHECKING:
    from .study import Study

log = logging.getLogger(__name__)


def _is_vit(backbone: nn.Module) -> bool:
    return hasattr(backbone, "blocks")


class ProtocolRunner:
    """Computes the runs of a `Study`: its backbones (the zoo's cached on disk), its datasets, and
    each (model, dataset, protocol) run's predictions."""

    def __init__(self, study: Study) -> None:
        self.study = study
        self.settings = study.settings
        self.features = FeatureCache(study.results_root)
        self.zoo_dir = study.store.root / PAPER / "zoo"
        self._backbones: dict[str, nn.Module] = {}
        self._seen_through: dict[int, RegistrySource] = {}

    # -- models -------------------------------------------------------------------------------
    def backbone(self, index: int) -> nn.Module:
        """A fresh copy of the `index`-th model's pre-trained backbone (cached on disk for the zoo)."""
        name = self.study.model_names()[index]
        if name not in self._backbones:
            self._backbones[name] = self._load_backbone(index)
        return copy.deepcopy(self._backbones[name])

    def _load_backbone(self, index: int) -> nn.Module:
        s = self.settings
        if s.source == "registry":
            from ..models.registry import load_pretrained

            return load_pretrained(s.models[index])
        member = zoo_member(s.models[index])
        domain = self._embedded.domain(s.in_domain)
        backbone = build_standin(member.architecture, num_classes=0, image_size=s.image_size, in_chans=1, seed=s.seed)
        spec = {"member": member.name, "domain": domain.name, "image_size": s.image_size, "seed": s.seed, "pretrain": s.pretrain}
        path = self.zoo_dir / f"{run_key(spec)}.pt"

        def make() -> dict[str, torch.Tensor]:
            pretrain(backbone, member.objective, domain.train_images, domain.train_labels, domain.num_classes,
                     s.config("pretrain", epochs=member.epochs))
            log.info("pre-trained %s on %s (%s)", member.name, domain.name, path.name)
            return backbone.cpu().state_dict()

        backbone.load_state_dict(load_or_make(path, lambda p: torch.load(p, map_location="cpu"), make, torch.save))
        return backbone

    # -- data ---------------------------------------------------------------------------------
    @functools.cached_property
    def _embedded(self) -> EmbeddedSource:
        return EmbeddedSource(self.settings.image_size, self.settings.seed)

    @functools.cached_property
    def registry(self) -> RegistrySource:
        """Every registered dataset of the study, opened once (each named by its settings entry);
        missing ones raise one DatasetMissingError naming them all."""
        s = self.settings
        return RegistrySource({e: registry_pair(e)[1:] for e in [s.in_domain, *s.out_of_domain]}, seed=s.seed, workers=8)

    def data(self, index: int = 0) -> DataSource:
        """The study's datasets, each named by its settings entry; registered ones seen through the
        `index`-th model's eval transform."""
        s = self.settings
        if s.source == "embedded":
            return self._embedded
        if index not in self._seen_through:
            from ..data.transforms import eval_transform
            from ..models.registry import spec

            row = spec(s.models[index])
            backbone = self.backbone(index) if row.preprocess in ("timm_config", "open_clip") else None
            self._seen_through[index] = self.registry.with_transform(eval_transform(row.preprocess, backbone, row.pretrained))
        return self._seen_through[index]

    # -- protocols ----------------------------------------------------------------------------
    def _frozen_features(self, index: int, entry: str) -> tuple[np.ndarray, ...]:
        s, data = self.settings, self.data(index)
        batch = s.linear_probe["batch_size"]
        out = []
        for split_name in ("train", "test"):
            batches = functools.partial(data.batches, entry, split_name, batch)
            spec = {"model": self.study.model_names()[index], "dataset": entry, "split": split_name, "image_size": s.image_size,
                    "seed": s.seed, "pretrain": s.pretrain, "models": s.models[index]}
            out.extend(self.features.get(spec, lambda b=batches: extract_features(self.backbone(index), b(), s.device)))
        return tuple(out)

    def evaluate(self, index: int, entry: str, label: str, protocol: str) -> pd.DataFrame:
        """One run's per-item top-k predictions."""
        s, classes = self.settings, self.data(index).num_classes(entry)
        if protocol not in PROBE_PROTOCOLS:
            return prediction_frame(*self._finetune(index, entry, label, protocol))
        train_x, train_y, test_x, test_y = self._frozen_features(index, entry)
        if protocol.startswith("kNN"):
            scores = knn_votes(train_x, train_y, test_x, classes, k=s.knn_k, normalize=protocol == "kNN_N", device=s.device)
        else:
            head = fit_linear_probe(train_x, train_y, classes, s.config("linear_probe", label), batchnorm=protocol == "LP_BN")
            scores = probe_scores(head, test_x)
        return prediction_frame(test_y, rank_classes(scores, min(TOP_K, classes)))

    def _finetune(self, index: int, entry: str, label: str, protocol: str) -> tuple[np.ndarray, np.ndarray]:
        """Targets and ranked top-k classes of the test split after fine-tuning under `protocol`."""
        s, data = self.settings, self.data(index)
        backbone = self.backbone(index)
        block, indices = "finetune", None
        if protocol != "FT":
            block = "fewshot_finetune"
            fraction = FEWSHOT_FRACTIONS[protocol.removesuffix("_BN")]
            labels = data.targets(entry, "train")
            indices = class_balanced_indices(labels, per_class_count(labels, fraction), s.seed)
        vit = _is_vit(backbone)
        config = s.config(block, label, label_smoothing=s.vit["label_smoothing"] if vit else 0.0)
        with torch.random.fork_rng():
            torch.manual_seed(s.seed)
            model = Classifier(backbone, data.num_classes(entry), batchnorm_head=protocol.endswith("_BN"))
        if vit:
            set_drop_path(model.backbone, s.vit["drop_path"])
        groups = layer_decay_groups(model, s.vit["layer_decay"], config.weight_decay) if vit else None
        batch = min(config.batch_size, len(indices) if indices is not None else config.batch_size)
        train(model, data.batches(entry, "train", batch, seed=s.seed, indices=indices), config, groups=groups)
        ranked, targets = predict_ranked(model, data.batches(entry, "test", config.batch_size), top_k(TOP_K), s.device, config.amp)
        return targets, ranked
