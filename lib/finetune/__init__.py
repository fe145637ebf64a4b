"""Fine-tuning methods of ImageNet-RIB as small units a training loop plugs in.

One module per method: `linear_probe` (which parameters train, BatchNorm statistics), `lp_ft`
(two-stage schedule), `lora` (LoRA on timm's fused qkv), `prompter` (padding visual prompt),
`regularizers` (EWC and the released code's L2 pull), `lwf` (distillation loss),
`interpolation` (WiSE-FT and uniform model soups) and `zeroshot` (open_clip zero-shot head, FLYP
loss). None of them loops over a dataset except the Fisher estimate, which takes the batches to use.
"""
