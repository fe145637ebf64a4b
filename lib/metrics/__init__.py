"""Metrics shared by several papers: accuracies and rank correlations."""
