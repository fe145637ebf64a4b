"""The names of the pre-training objectives of `lib.train.pretext`, importable without torch (settings
files name them, and are validated before anything is computed)."""

OBJECTIVES = ("supervised", "simclr", "rotation", "masked", "none")
