"""ImageNet's per-channel mean and standard deviation of RGB on [0, 1], the statistics every `Normalize` of the
project reads (torch-free, so that numpy-only code can use them)."""

IMAGENET_MEAN = (0.485, 0.456, 0.406)
IMAGENET_STD = (0.229, 0.224, 0.225)
