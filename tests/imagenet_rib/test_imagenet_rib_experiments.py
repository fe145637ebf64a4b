"""The appendix variants of ImageNet-RIB: training splits, best-epoch selection, per-epoch
evaluation, CLIP regimes, and the experiments files that name them for every tier."""

from __future__ import annotations

import copy
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import torch
import yaml
from torch import nn

from lib.imagenet_rib.benchmark import PRETRAINED, Benchmark, BenchmarkSettings, accuracies, robustness_table
from lib.imagenet_rib.experiments import experiment_settings, load_experiments, run_experiment, with_value
from lib.imagenet_rib.ours_experiments import experiments_read
from lib.finetune.methods import BestEpoch, MethodSettings, train_method
from lib.imagenet_rib.runner import BenchmarkRunner
from lib.imagenet_rib.suite_data import TrainingSplit
from lib.params import ParamsError
from lib.paths import REPO_ROOT
from lib.store import run_key
from lib.train.config import TrainConfig
from lib.train.loop import tensor_batches, train

TINY = Path("params/tiny/imagenet_rib/benchmark.yaml")
QUICK_PRETRAIN = {"epochs": 1, "batch_size": 64, "base_lr": 0.001, "reference_batch": 64, "optimizer": "adamw"}




# -- training splits -----------------------------------------------------------------------------
def test_training_split_default_keeps_everything_and_holds_out_nothing():
    train_items, held_out = TrainingSplit().indices([0, 1, 1, 2, 0], seed=0)
    assert train_items.tolist() == [0, 1, 2, 3, 4] and held_out.tolist() == []


def test_training_split_holds_out_a_fifth_of_every_class_then_keeps_k_per_class():
    targets = np.repeat([0, 1, 2], [10, 20, 5])
    train_items, held_out = TrainingSplit(validation_fraction=0.2).indices(targets, seed=3)
    assert not set(train_items) & set(held_out) and len(train_items) + len(held_out) == 35
    assert np.bincount(targets[held_out]).tolist() == [2, 4, 1]  # round(0.2 * n) per class
    small, held_out_again = TrainingSplit(images_per_class=3, validation_fraction=0.2).indices(targets, seed=3)
    assert np.array_equal(held_out, held_out_again)  # k is drawn from what is left for training
    assert np.bincount(targets[small]).tolist() == [3, 3, 3] and set(small) <= set(train_items)
    assert TrainingSplit(images_per_class=7).indices(targets, seed=0)[0].size == 7 + 7 + 5  # a class with fewer keeps all
    again = TrainingSplit(images_per_class=3).indices(targets, seed=1)[0]
    assert np.array_equal(again, TrainingSplit(images_per_class=3).indices(targets, seed=1)[0])


# -- epoch hooks -----------------------------------------------------------------------------------
def test_train_calls_the_epoch_hook_after_every_epoch():
    model = nn.Linear(4, 2)
    seen = []
    batches = tensor_batches(torch.randn(16, 4), torch.randint(0, 2, (16,)), 8, 0)
    train(model, batches, TrainConfig(epochs=3, batch_size=8, base_lr=0.1), on_epoch_end=lambda e, m: seen.append((e, m.training)))
    assert seen == [(1, True), (2, True), (3, True)]


def test_train_calls_the_step_hook_after_every_optimiser_step():
    model = nn.Linear(4, 2)
    weights = []
    batches = tensor_batches(torch.randn(16, 4), torch.randint(0, 2, (16,)), 8, 0)
    train(model, batches, TrainConfig(epochs=3, batch_size=8, base_lr=0.1), after_step=lambda m: weights.append(m.weight.clone()))
    assert len(weights) == 6 and not torch.equal(weights[0], weights[1])  # 2 steps per epoch, each after an update


def test_best_epoch_returns_the_model_of_the_best_scoring_epoch():
    scores = iter([10.0, 30.0, 30.0, 20.0])  # epoch 2 is best; epoch 3 ties it and loses
    snapshots = []

    def score(model: nn.Module) -> float:
        snapshots.append(copy.deepcopy(model.state_dict()))
        return next(scores)

    hook = BestEpoch(score)
    pretrained = nn.Sequential(nn.Flatten(), nn.Linear(4, 3))
    batches = tensor_batches(torch.randn(32, 4), torch.randint(0, 3, (32,)), 8, 0)
    settings = MethodSettings(**yaml.safe_load(TINY.read_text())["method_settings"])
    chosen = train_method("FT", pretrained, batches, TrainConfig(epochs=4, batch_size=8, base_lr=0.5), settings, None,
                          epoch_hook=hook)
    assert hook.epoch == 2 and hook.best_score == 30.0
    for key, value in chosen.state_dict().items():
        assert torch.equal(value, snapshots[1][key])
    assert not torch.equal(snapshots[1]["1.weight"], snapshots[3]["1.weight"])  # training went on after epoch 2


# -- experiments files -------------------------------------------------------------------------------
@pytest.mark.parametrize("tier", ["tiny", "mini", "full"])
def test_every_experiment_of_every_tier_validates_offline(tier):
    base, experiments = load_experiments(f"params/{tier}/imagenet_rib/experiments.yaml")
    assert {"main", "clip_zero_shot", "validation_split", "learning_rate", "weight_decay", "wise_alpha",
            "small_subsets", "imagenet_val", "seeds", "training_curves"} <= set(experiments)
    for experiment in experiments.values():
        for value, settings in experiment.variants(base, "x"):
            assert (value is None) == (experiment.swept is None) and isinstance(settings, BenchmarkSettings)


def test_full_experiments_hold_the_papers_settings():
    base, experiments = load_experiments("params/full/imagenet_rib/experiments.yaml")
    def variants(name):
        return experiments[name].variants(base, "x")
    assert [v for v, _ in variants("weight_decay")] == [0.0, 0.0001, 0.0005, 0.001, 0.005, 0.01, 0.1]  # Table 14
    assert [(v, s.finetune["epochs"]) for v, s in variants("learning_rate")] == [(0.0005, 25), (0.0001, 25), (0.00005, 25)]
    (_, split), = variants("validation_split")
    assert split.validation_fraction == 0.2 and split.finetune["epochs"] == 25  # App. E
    (_, cars), = variants("stanford_cars")
    assert cars.finetune_datasets == ["stanford_cars"] and all(cars.zero_shot(r) for r in cars.regimes)
    (_, seeds), = variants("seeds")
    assert seeds.seeds == [0, 1, 2] and len(seeds.regimes) == 3  # Table 15
    (_, clip), = variants("clip_zero_shot")
    assert "FLYP" in clip.methods and "Linear Probing" not in clip.methods and len(clip.regimes) == 9


def test_variants_share_runs_where_only_other_methods_settings_differ(tmp_path):
    base, experiments = load_experiments("params/tiny/imagenet_rib/experiments.yaml")
    (_, main), = experiments["main"].variants(base, "x")
    sweep = experiments["wise_alpha"].variants(base, "x")
    configs = [Benchmark(s, tmp_path).run_config("clean", 0, "FT", "digits_inverted") for _, s in sweep]
    assert all(c == Benchmark(main, tmp_path).run_config("clean", 0, "FT", "digits_inverted") for c in configs)
    wise = [Benchmark(s, tmp_path).run_config("clean", 0, "WiSE-FT", "digits_inverted") for _, s in sweep]
    assert len({str(c["method_settings"]) for c in wise}) == len(sweep)


def test_a_sweep_value_restating_a_default_is_the_benchmark_itself(tmp_path):
    base, experiments = load_experiments("params/mini/imagenet_rib/experiments.yaml")
    (_, main), = experiments["main"].variants(base, "x")
    decays = dict(experiments["weight_decay"].variants(base, "x"))
    assert "weight_decay" not in base["finetune"] and 0.0 in decays
    def config(settings):
        return Benchmark(settings, tmp_path).run_config("augmented", 0, "FT", "digits_inverted")
    assert config(decays[0.0]) == config(main)  # TrainConfig's default: main's FT run, computed once
    assert config(decays[0.0001])["finetune"]["weight_decay"] == 0.0001
    assert with_value({"finetune": {}}, "finetune.weight_decay", 0, "x") == {"finetune": {"weight_decay": 0}}  # an int


@pytest.mark.parametrize("tier", ["tiny", "mini"])
def test_table15s_notebook_reads_the_seeds_experiment_which_below_full_is_main_s_runs(tier, tmp_path):
    path = f"params/{tier}/imagenet_rib/experiments.yaml"
    assert experiments_read("table15") == ("seeds",)  # precomputed with the notebooks that read it
    base, experiments = load_experiments(path)
    (_, main), = experiments["main"].variants(base, "x")
    seeds = experiment_settings(path, "seeds")
    def keys(settings):
        return {run_key(c) for c, _ in Benchmark(settings, tmp_path).jobs()}
    assert keys(seeds) <= keys(main)  # no run of its own: the tier's budget
    with pytest.raises(ParamsError, match="sweeps 'method_settings.wise_alpha'"):
        experiment_settings(path, "wise_alpha")


def test_with_value_sets_a_key_or_a_block_entry_without_changing_its_input():
    values = {"finetune": {"epochs": 10}, "seeds": [0]}
    assert with_value(values, "finetune.epochs", 25, "x") == {"finetune": {"epochs": 25}, "seeds": [0]}
    assert values["finetune"]["epochs"] == 10
    with pytest.raises(ParamsError, match="names an entry of 'seeds', which is not a block"):
        with_value(values, "seeds.first", 1, "x")


@pytest.mark.parametrize(("experiment", "message"), [
    ({"overrides": {"finetune.momentum_typo": 0.9}}, "TrainConfig does not know"),
    ({"overrides": {"regimes": ["rib_vit_b16_nonexistent"]}}, "is not a key of lib/registry/models.csv"),
    ({"sweep": {"images_per_class": [1], "seeds": [[0]]}}, "sweep must map one key"),
    ({"sweep": {"finetune.weight_decay": [0.0, "1e-4"]}}, "finetune.weight_decay='1e-4'"),
    ({"artefacts": "table14"}, "'artefacts' must be list[str]"),
])
def test_a_broken_experiment_names_itself_before_any_compute(tmp_path, experiment, message):
    entry = {"artefacts": ["table14"], "description": "d", "overrides": {}, "sweep": {}} | experiment
    path = tmp_path / "experiments.yaml"
    path.write_text(yaml.safe_dump({"benchmark": "params/full/imagenet_rib/benchmark.yaml", "experiments": {"broken": entry}}))
    with pytest.raises(ParamsError, match="broken") as error:
        load_experiments(path)
    assert message in str(error.value)


def test_the_experiment_command_checks_every_full_experiment():
    done = subprocess.run([sys.executable, "-m", "lib", "experiment", "--tier", "full", "--check"], cwd=REPO_ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "ok weight_decay" in done.stdout and "ok stanford_cars" in done.stdout


# -- tiny runs of the variants -------------------------------------------------------------------------
def quick(**changes) -> BenchmarkSettings:
    return replace(BenchmarkSettings.load(TINY), regimes=["clean"], suite=["digits_inverted", "digits_edges"],
                   methods=["FT"], pretrain=QUICK_PRETRAIN, **changes)


def test_validation_split_keeps_the_best_epoch_and_reports_it(tmp_path):
    settings = quick(validation_fraction=0.2, finetune={**quick().finetune, "epochs": 3})
    acc = Benchmark(settings, tmp_path).run_accuracies()
    tuned = acc[acc["method"] == "FT"]
    assert tuned["selected_epoch"].between(1, 3).all() and acc.loc[acc["method"] == PRETRAINED, "selected_epoch"].isna().all()
    table = robustness_table(acc, settings.suite, "digits")
    assert table["mean selected epoch"].between(1, 3).all()


def test_every_epoch_evaluation_gives_one_table_per_epoch(tmp_path):
    settings = quick(evaluate_every_epoch=True, finetune={**quick().finetune, "epochs": 2})
    runs = Benchmark(settings, tmp_path).run()
    acc = accuracies(runs)
    assert sorted(acc.loc[acc["method"] == "FT", "epoch"].unique()) == [1, 2]
    table = robustness_table(acc, settings.suite, "digits")
    assert table["epoch"].tolist() == [1, 2] and table["mRI"].notna().all()


def test_fine_tuning_on_the_reference_and_on_few_images_per_class(tmp_path):
    settings = quick(finetune_datasets=["digits"], images_per_class=2)
    bench = Benchmark(settings, tmp_path)
    assert len(bench.runner.suite.train_batches("digits", 64, 0, settings.training_split).dataset) == 20  # 2 x 10 classes
    acc = bench.run_accuracies()
    assert set(acc["finetune_dataset"]) == {"", "digits"} and set(acc["eval_dataset"]) == {"digits", *settings.suite}


def test_the_embedded_clip_regime_runs_every_zero_shot_method(tmp_path):
    settings = replace(quick(), regimes=["clip"], suite=["digits_edges"],
                       methods=["FT", "Visual Prompt", "LoRA", "EWC", "LwF", "WiSE-FT", "MS:PRE-FT-EWC-LwF", "FLYP"])
    acc = Benchmark(settings, tmp_path).run_accuracies()
    assert set(acc["method"]) == {PRETRAINED, *settings.methods} and acc["accuracy"].notna().all()
    edges = acc[(acc["eval_dataset"] == "digits_edges") & (acc["method"] == PRETRAINED)]["accuracy"]
    assert edges.between(0, 100).all()


def test_run_experiment_adds_the_swept_value(tmp_path):
    path = tmp_path / "experiments.yaml"
    base = yaml.safe_load(TINY.read_text()) | {"regimes": ["clean"], "suite": ["digits_inverted"], "methods": ["FT", "WiSE-FT"],
                                              "pretrain": QUICK_PRETRAIN, "class_subsets": {}}
    (tmp_path / "benchmark.yaml").write_text(yaml.safe_dump(base))
    path.write_text(yaml.safe_dump({"benchmark": str(tmp_path / "benchmark.yaml"), "experiments": {"alpha": {
        "artefacts": ["table16"], "description": "d", "overrides": {}, "sweep": {"method_settings.wise_alpha": [0.0, 1.0]}}}}))
    acc = run_experiment(path, "alpha", tmp_path / "results")
    wise = acc[acc["method"] == "WiSE-FT"].set_index(["method_settings.wise_alpha", "eval_dataset"])["accuracy"]
    pre = acc[(acc["method"] == PRETRAINED) & (acc["method_settings.wise_alpha"] == 0.0)].set_index("eval_dataset")["accuracy"]
    ft = acc[(acc["method"] == "FT") & (acc["method_settings.wise_alpha"] == 0.0)].set_index("eval_dataset")["accuracy"]
    assert wise.loc[1.0].to_dict() == pre.to_dict()  # Eq. 3: alpha = 1 is the pretrained model
    assert wise.loc[0.0].to_dict() == ft.to_dict()


@pytest.mark.parametrize("name", ["stanford_cars", "imagenet_subsets"])
def test_a_full_experiment_without_data_names_every_missing_dataset_before_compute(tmp_path, monkeypatch, name):
    from lib.data.labelled import DatasetMissingError

    monkeypatch.setenv("ROBUSTNESS_DATA_ROOT", str(tmp_path / "data"))
    monkeypatch.setattr(BenchmarkRunner, "pretrained", lambda *args: pytest.fail("loaded weights before checking the data"))
    with pytest.raises(DatasetMissingError) as error:
        run_experiment("params/full/imagenet_rib/experiments.yaml", name, tmp_path / "results")
    message = str(error.value)
    extra = {"stanford_cars": "stanford_cars", "imagenet_subsets": "imagenet_train"}[name]
    assert message.startswith("10 dataset(s)") and f"dataset '{extra}'" in message and "Licence" in message
