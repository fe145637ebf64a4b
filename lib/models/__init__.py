"""Models: the registry of the papers' pretrained models and the random-init stand-ins of the small tiers."""
