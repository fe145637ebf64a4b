"""Image perturbations of one layout and one signature (`lib.perturb.perturbations`): common
corruptions and style shifts at a continuous severity, deterministic under a seed."""
