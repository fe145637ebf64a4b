"""Datasets: the registry of real datasets (folder form), their loaders, and embedded data."""
