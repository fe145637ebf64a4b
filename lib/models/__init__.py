"""Models: the registry of the papers' pretrained models, the key recipes that load checkpoint files
onto backbones, and the random-init stand-ins of the small tiers."""
