"""The shared data source (`lib.data.source`): embedded domains and registered datasets behind one
interface, on the embedded digits and on generated folder trees."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from torchvision import transforms

from lib.data.folders import imagenet_wnids
from lib.data.labelled import DatasetMissingError
from lib.data.source import EmbeddedSource, RegistrySource
from tests.conftest import write_images

TO_TENSOR = transforms.Compose([transforms.Resize((8, 8)), transforms.ToTensor()])


def test_embedded_source_serves_a_domains_splits_in_order_shuffled_or_subset():
    source = EmbeddedSource(image_size=8)
    images, labels = source.items("digits_inverted", "test")
    assert images.shape[1:] == (1, 8, 8) and source.num_classes("digits_inverted") == 10
    np.testing.assert_array_equal(source.targets("digits_inverted", "test"), labels.numpy())
    ordered = torch.cat([y for _, y in source.batches("digits_inverted", "test", 64)])
    assert torch.equal(ordered, labels)
    shuffled = [torch.cat([y for _, y in source.batches("digits_inverted", "train", 64, seed=s)]) for s in (3, 3, 4)]
    assert torch.equal(shuffled[0], shuffled[1]) and not torch.equal(shuffled[0], shuffled[2])
    subset = torch.cat([y for _, y in source.batches("digits_inverted", "train", 4, indices=np.array([5, 0]))])
    assert subset.tolist() == source.targets("digits_inverted", "train")[[5, 0]].tolist()
    with pytest.raises(ValueError, match="split must be one of"):
        source.items("digits", "val")


@pytest.fixture
def tree(tmp_path):
    wnids = imagenet_wnids()
    for i, wnid in enumerate(wnids[:2]):
        write_images(tmp_path / "imagenet" / "val" / wnid, 10, seed=i)
    return tmp_path


def test_registry_source_splits_a_shared_dataset_70_30_or_reads_it_whole(tree):
    pair = ("imagenet_val", "imagenet_val")
    split = RegistrySource({"val": pair}, TO_TENSOR, seed=0, root=tree)
    train, test = split.targets("val", "train"), split.targets("val", "test")
    assert (len(train), len(test)) == (14, 6) and sorted(np.bincount(test)) == [3, 3]  # stratified
    whole = RegistrySource({"val": pair}, TO_TENSOR, split_shared=False, root=tree)
    np.testing.assert_array_equal(whole.targets("val", "train"), whole.targets("val", "test"))
    images, labels = next(iter(split.batches("val", "test", 32)))
    assert images.shape == (6, 3, 8, 8) and labels.tolist() == test.tolist()
    assert split.num_classes("val") == 1000 and list(split.part_labels("val", "test").categories) == [""]


def test_registry_source_needs_a_transform_and_names_every_missing_dataset(tree):
    with pytest.raises(ValueError, match="with_transform"):
        RegistrySource({"val": ("imagenet_val", "imagenet_val")}, root=tree).batches("val", "test", 4)
    with pytest.raises(DatasetMissingError, match="2 dataset\\(s\\) missing") as error:
        RegistrySource({"a": ("imagenet_a", "imagenet_a"), "r": ("imagenet_r", "imagenet_r")}, root=tree)
    assert "imagenet-a" in str(error.value) and "imagenet-r" in str(error.value)
