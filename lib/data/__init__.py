"""Datasets: the registry of real datasets and their loaders (class folders, VOC masks, CIFAR pickles,
iNaturalist 2021, Stanford Cars devkit, COCO instances, ...), and embedded data."""
