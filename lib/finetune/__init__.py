"""Fine-tuning methods as small units a training loop plugs in, and the registry that dispatches to them.

One module per method: `linear_probe` (which parameters train, BatchNorm statistics), `lp_ft`
(two-stage schedule), `lora` (LoRA on timm's fused qkv), `prompter` (padding visual prompt),
`regularizers` (EWC and the released code's L2 pull), `lwf` (distillation loss),
`interpolation` (WiSE-FT and uniform model soups) and `zeroshot` (open_clip zero-shot head, FLYP
loss); `methods` names each method (how it trains or combines weights, which settings it reads)
and runs it. None of the units loops over a dataset except the Fisher estimate, which takes the batches to use.
"""
