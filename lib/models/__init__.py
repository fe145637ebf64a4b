"""Models: the registry of the papers' pretrained models, the key recipes that load checkpoint files
onto backbones, the random-init stand-ins of the small tiers, and open_clip zero-shot wiring (`clip`)."""
