"""Evaluation shared by the papers: feature extraction, kNN probing, top-k accuracy."""
