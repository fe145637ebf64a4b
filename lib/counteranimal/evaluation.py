"""CounterAnimal evaluation (Sec. 4, App. C.1): per-item predictions of CLIPs and ImageNet classifiers.

Every model gives one prediction frame in the shared format (`lib.evaluate.frames`: `item`,
`target`, `pred_1..pred_k`) plus the items' `class`, `group` and `background` columns
(`CounterAnimalImages.items()`); `lib.counteranimal.metrics` scores them.

- Zero-shot CLIP: the shared head (`lib.finetune.zeroshot.ZeroShotClassifier`, frozen: text embeddings
  computed once, on the model's device) over the 1000 ImageNet-1K label strings. Prompt and label
  strings are parameters. Defaults: the paper's prompt "A photo of {}." (Sec. 4; with its full stop)
  and the full WordNet synset strings (`imagenet_synsets`, e.g. "ice bear, polar bear, Ursus
  Maritimus, Thalarctos maritimus"), which Tables 1-2 print and the released `imagenet_names.txt`
  holds (read offline from timm's ImageNetInfo). Registry keys become classifiers through
  `registered_classifier`. Alternatives: `openai_curated` names (open_clip's IMAGENET_CLASSNAMES) and the
  80-template ensemble (`TEMPLATE_SETS["openai_80"]`, Table 10), which is open_clip's own classifier
  builder (mean of the unit-norm prompt embeddings, re-normalised).
  The head encodes the prompts in chunks (`lib.finetune.zeroshot.PROMPT_CHUNK`): the ensemble has 80,000.
- ImageNet classifiers: their 1000 logits, as they are.
- Candidate sets. "1 vs 1000": `top_k(k)` over all classes. "1 vs 20": for each class c, the 20 labels
  with the largest summed cosine similarity to the images of c in both groups under the reference
  CLIP (CLIP-LAION400M-ViT/B/32, "A photo of {}."), App. C.1: `candidate_sets`, built once and saved
  (`candidate_frame`), then every model (CLIP or ImageNet) is ranked among its item's class's
  candidates only (`RestrictedRanker`). Whether the true class is forced into its own set is not
  stated; `force_target=False` (the formula as printed) is the default, and in the third-party
  reproduction's sets the true class was always among the 20 anyway.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

import numpy as np
import pandas as pd
import torch
from torch import nn
from torch.utils.data import DataLoader

from ..data.counteranimal import CounterAnimalImages
from ..data.transforms import eval_transform
from ..evaluate.frames import prediction_frame
from ..evaluate.predictions import Ranker, predict_ranked
from ..evaluate.ranking import rank_classes
from ..finetune.templates import TEMPLATE_SETS
from ..finetune.zeroshot import Tokenizer, ZeroShotClassifier, tokenize_prompts
from ..models.clip import imagenet_class_names, tokenizer_for
from ..models.registry import load_pretrained, spec
from ..train.loop import device_of
from .published import TABLE02_READINGS, class_names

PAPER_TEMPLATE = "A photo of {}."
CANDIDATES = 20
Batches = Iterable[tuple[torch.Tensor, torch.Tensor]]


def imagenet_synset_names() -> list[str]:
    """The 1000 ImageNet-1K labels as full WordNet synset strings, in label order (timm, offline)."""
    from timm.data import ImageNetInfo

    info = ImageNetInfo("imagenet-1k")
    return [info.index_to_description(i) for i in range(info.num_classes())]


def table02_imagenet_indices() -> dict[int, int]:
    """Table 2's class id -> the ImageNet-1K index of its class (what a CounterAnimal folder is named by): the
    printed label matched to a synset string, case aside, or by `published.TABLE02_READINGS` where it is none."""
    index = {name.lower(): i for i, name in enumerate(imagenet_synset_names())}
    table2 = class_names()
    labels = pd.Series([TABLE02_READINGS.get(i, label) for i, label in zip(table2["class_id"], table2["object_label"])],
                       index=table2.index).str.lower()
    unmatched = table2.loc[~labels.isin(index), "object_label"].tolist()
    if unmatched:
        raise ValueError(f"Table 2 labels {unmatched} are no ImageNet-1K synset string; add their reading to "
                         "lib/counteranimal/published.py TABLE02_READINGS")
    return dict(zip(table2["class_id"], labels.map(index)))


LABEL_SETS: dict[str, Callable[[], list[str]]] = {
    "imagenet_synsets": imagenet_synset_names, "openai_curated": imagenet_class_names,
}


def label_names(name: str) -> list[str]:
    """A named list of the 1000 ImageNet-1K label strings (`LABEL_SETS`)."""
    if name not in LABEL_SETS:
        raise ValueError(f"unknown label set {name!r}; choose one of {sorted(LABEL_SETS)}")
    return LABEL_SETS[name]()


def templates(name_or_template: str) -> tuple[str, ...]:
    """A named template set (`TEMPLATE_SETS`, e.g. 'openai_80') or one prompt string with a `{}`."""
    if name_or_template in TEMPLATE_SETS:
        return TEMPLATE_SETS[name_or_template]
    if "{}" not in name_or_template:
        raise ValueError(f"prompt {name_or_template!r} is neither a template set {sorted(TEMPLATE_SETS)} "
                         "nor a string with '{}'")
    return (name_or_template,)


def zero_shot_head(clip_model: nn.Module, tokenizer: Tokenizer, labels: str | Sequence[str] = "imagenet_synsets",
                   prompt: str = PAPER_TEMPLATE, amp: bool = False) -> ZeroShotClassifier:
    """The frozen zero-shot head of `clip_model` over the 1000 labels (a `LABEL_SETS` name or the strings
    themselves), prompted by `prompt` (one template, or a `TEMPLATE_SETS` name for an ensemble).

    The prompts are encoded once, on the model's device, in chunks (`lib.finetune.zeroshot`), without gradients;
    with `amp` on CUDA under bf16 autocast (the class embeddings kept in float32), as the evaluation runs.
    """
    names = label_names(labels) if isinstance(labels, str) else list(labels)
    device = device_of(clip_model)
    tokens = tokenize_prompts(tokenizer, names, templates(prompt)).to(device)
    with torch.no_grad(), torch.autocast(device.type, dtype=torch.bfloat16, enabled=amp and device.type == "cuda"):
        return ZeroShotClassifier(clip_model, tokens, text_tower="frozen")


def registered_classifier(key: str, labels: str | Sequence[str] = "imagenet_synsets", prompt: str = PAPER_TEMPLATE,
                          device: str = "cpu", weights_root: str | None = None,
                          amp: bool = False) -> tuple[nn.Module, Callable]:
    """A model of lib/registry/models.csv as a 1000-class classifier on `device`, with its eval transform:
    an open_clip row through its zero-shot head (`zero_shot_head`, under `amp`; the text embeddings are computed
    here, once), any other row through its own logits and the row's `preprocess` rule. Missing weights raise
    WeightsMissingError before any compute."""
    s = spec(key)
    model = load_pretrained(key, weights_root).eval().to(device)
    if s.library == "open_clip":
        return zero_shot_head(model, tokenizer_for(key), labels, prompt, amp), eval_transform("open_clip", model)
    return model, eval_transform(s.preprocess, model, s.pretrained)


def ordered_batches(data: CounterAnimalImages, batch_size: int, workers: int = 0) -> DataLoader:
    """The items of `data` (its transform applied) in item order, as (images, targets) batches, decoded by
    `workers` processes, in pinned memory when a GPU is present (for non-blocking copies)."""
    return DataLoader(data, batch_size=batch_size, shuffle=False, num_workers=workers,
                      pin_memory=torch.cuda.is_available())


def candidate_sets(class_scores: np.ndarray, classes: Sequence[int], k: int = CANDIDATES,
                   force_target: bool = False) -> dict[int, np.ndarray]:
    """Each class's k candidate labels, best first, from its summed scores over the labels (classes x labels).

    Ties go to the lower label index (`rank_classes`). `force_target` puts a class that is not among its
    own k best in place of the k-th.
    """
    ranked = rank_classes(np.asarray(class_scores, dtype=np.float64), k)
    sets = {}
    for target, row in zip(classes, ranked):
        if force_target and target not in row:
            row = np.append(row[:-1], target)
        sets[int(target)] = row
    return sets


def summed_scores(scores: np.ndarray, targets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(classes present, summed score rows): each class's item scores (items x labels) added up."""
    classes, index = np.unique(targets, return_inverse=True)
    sums = np.zeros((len(classes), scores.shape[1]))
    np.add.at(sums, index, scores)
    return classes, sums


def reference_candidate_sets(head: ZeroShotClassifier, batches: Batches, k: int = CANDIDATES, device: str = "cpu",
                             amp: bool = False, force_target: bool = False) -> dict[int, np.ndarray]:
    """The 1 vs k candidate sets of the reference CLIP's zero-shot `head` over all items of `batches`.

    The head's logits are the cosine similarities times one positive scale, so their per-class sums
    rank the labels as the summed cosine similarities of App. C.1 do.
    """
    scores, targets = predict_ranked(head, batches, lambda logits: logits.numpy(), device, amp)
    classes, sums = summed_scores(scores, targets)
    return candidate_sets(sums, classes, k, force_target)


def candidate_frame(sets: Mapping[int, np.ndarray]) -> pd.DataFrame:
    """The candidate sets as rows (target, rank, candidate), rank 1 = best; to save and reuse."""
    return pd.DataFrame([(t, r + 1, int(c)) for t, row in sets.items() for r, c in enumerate(row)],
                        columns=["target", "rank", "candidate"])


def sets_from_frame(frame: pd.DataFrame) -> dict[int, np.ndarray]:
    """`candidate_frame`'s inverse."""
    ordered = frame.sort_values(["target", "rank"])
    return {int(t): group["candidate"].to_numpy() for t, group in ordered.groupby("target")}


class RestrictedRanker:
    """A ranker that ranks each item's logits among its class's candidates only (best first, ImageNet indices).

    `predict_ranked` calls a ranker on the batches in order without their targets, so this one is given
    the targets of all items in that order and keeps a cursor; `check_done` confirms every item was seen.
    Ties go to the lower ImageNet index, as in `rank_classes`.
    """

    def __init__(self, targets: Sequence[int], sets: Mapping[int, np.ndarray], k: int = 1) -> None:
        missing = sorted(set(int(t) for t in targets) - set(sets))
        if missing:
            raise ValueError(f"no candidate set for classes {missing[:5]}; build the sets over every class of the data")
        self.targets, self.k, self.cursor = np.asarray(targets), k, 0
        self.sets = {int(t): np.sort(np.asarray(s)) for t, s in sets.items()}  # ascending: the tie rule

    def __call__(self, logits: torch.Tensor) -> np.ndarray:
        scores = logits.float().numpy()
        batch = self.targets[self.cursor:self.cursor + len(scores)]
        if len(batch) != len(scores):
            raise ValueError(f"more items than the {len(self.targets)} targets this ranker was given")
        self.cursor += len(scores)
        ranked = []
        for row, target in zip(scores, batch):
            candidates = self.sets[int(target)]
            ranked.append(candidates[rank_classes(row[candidates][None], min(self.k, len(candidates)))[0]])
        return np.stack(ranked)

    def check_done(self, targets: np.ndarray) -> None:
        if self.cursor != len(self.targets) or not np.array_equal(targets, self.targets):
            raise ValueError("the batches did not yield the ranker's items in order (use ordered_batches)")


def predictions(classifier: nn.Module, data: CounterAnimalImages, batches: Batches, rank: Ranker, device: str = "cpu",
                amp: bool = False, **columns) -> pd.DataFrame:
    """The prediction frame of `classifier` (logits over the 1000 ImageNet classes: a zero-shot head or an
    ImageNet model) on `data`'s items, from `batches` in item order, with the items' class, group and
    background and any further `columns` (e.g. model=..., setup=...)."""
    ranked, targets = predict_ranked(classifier, batches, rank, device, amp)
    if isinstance(rank, RestrictedRanker):
        rank.check_done(targets)
    items = data.items()
    if not np.array_equal(targets, items["target"].to_numpy()):
        raise ValueError("the batches did not yield the data's items in order (use ordered_batches)")
    frame = prediction_frame(targets, ranked, **columns)
    return frame.join(items[["class", "group", "background"]])
