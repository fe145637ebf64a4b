#!/usr/bin/env bash
# The open issues' GPU checks in one call on the lent device machine (one H100; about 6 minutes of command time):
#   seq_to_final (#10): each method's training step, Conv-4, Dense-4 and Res-4 at 32 px, batch 100; and the
#     tiny tier's analysis runs (paths, projections, SVCCA, Fig. 9) on CUDA, which the full tier's geometry needs;
#   fm_perturbations (#11): the grid's inner step (perturb, embed, radius) for ViT-L/14, each part's share;
#   counteranimal (#12): zero-shot evaluation of ViT-L/14 and ViT-bigG/14 over 1000 classes, bf16.
# Every model has random weights (nothing is downloaded). The machine lacks a few packages lib needs (open_clip,
# ImageNet-C's corruptions, miniball): first, here, `make gpu-wheels` (into .whl/, ignored by git); then the device
# call is: command `bash benchmarks/gpu_checks.sh`, carry [".whl"], timeout_s 600. Each benchmark writes its CSV
# and printed report into $OUT (the device tool's output folder; build/gpu elsewhere) and has its own time limit,
# so one that fails or overruns leaves the others' results. Record them in docs/gpu_measurements.md.
set -uo pipefail
out=${OUT:-build/gpu}
mkdir -p "$out"
if compgen -G ".whl/*.whl" >/dev/null; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
    || exit 1
  export PYTHONPATH=/tmp/site:$PWD
else
  export PYTHONPATH=$PWD
fi
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee "$out/device.txt"

run() {  # run NAME LIMIT_S SCRIPT ARGS...: the script's CSV and report under $out
  local name=$1 limit=$2
  shift 2
  echo "== $name"
  timeout "$limit" python3 "$@" --out "$out/$name.csv" 2>&1 | tee "$out/$name.txt"
  echo "== $name: exit ${PIPESTATUS[0]}"
}

run seq_to_final_steps 180 benchmarks/seq_to_final_steps.py --device cuda --architectures Conv-4 Dense-4 Res-4 \
  --batches 5
run seq_to_final_geometry 90 benchmarks/seq_to_final_geometry.py --device cuda
run fm_perturbations_grid 180 benchmarks/fm_perturbations_grid.py --device cuda --model ViT-L-14 --batch-size 128 \
  --images 128
run counteranimal_zero_shot 180 benchmarks/counteranimal_zero_shot.py --device cuda --models ViT-L-14 ViT-bigG-14 \
  --batch-size 256 --batches 10
