"""Our run of the perturbation study in the notebooks: the mini settings, the pretrained stand-ins and the
robustness fine-tuning (`training.py`), the sampling and fine-tuning analyses through the store, and the
notebook functions of `ours.py` (figures in the one results schema, findings with intervals) on a
seconds-sized run."""

from __future__ import annotations

import dataclasses

import matplotlib
import numpy as np
import pytest
import torch

from lib.findings import Findings
from lib.fm_perturbations import ours, precompute
from lib.fm_perturbations.study import Study, StudySettings
from lib.fm_perturbations.training import PerturbedPairs, robustness_finetune
from lib.models.standins import build_standin
from lib.params import ParamsError
from lib.paths import REPO_ROOT
from lib.results import COLUMNS
from lib.train.config import TrainConfig

matplotlib.use("Agg")
TINY, MINI = "params/tiny/fm_perturbations/study.yaml", "params/mini/fm_perturbations/study.yaml"


def test_mini_settings_run_every_analysis_with_pretrained_models_of_three_kinds():
    mini = StudySettings.load(MINI)
    assert mini.source == "embedded" and set(mini.pretrain) == set(mini.models) == {"tiny_clip", "tiny_vit", "tiny_resnet"}
    assert mini.zero_shot == ["tiny_clip"] and mini.linear_probe_models == ["tiny_vit"] and len(mini.perturbations) == 9
    assert 5 in mini.sampling_study["m_values"] and 1.0 in mini.finetune["lambdas"]


@pytest.mark.parametrize("old, new, message", [
    ("pretrain: {tiny_clip:", "pretrain: {tiny_resnet:", "pretrain must name models of the study"),
    ("random_repeats: 2, n_images: 4}", "random_repeats: 2}", "sampling_study must be {} or have exactly the keys"),
    ("finetune: {model: tiny_clip, dataset: digits", "finetune: {model: tiny_clip, dataset: cifar",
     "finetune: dataset must be one of"),
    ("finetune: {model: tiny_clip,", "finetune: {model: tiny_vit,", "finetune: model must be one of zero_shot"),
    ("train: {epochs: 1, batch_size: 16,", "train: {epoch: 1, batch_size: 16,", "finetune: train's values must be"),
])
def test_bad_analysis_settings_stop_with_one_line(tmp_path, old, new, message):
    text = (REPO_ROOT / TINY).read_text()
    assert old in text
    path = tmp_path / "study.yaml"
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(ParamsError, match=message.replace("{", r"\{").replace("}", r"\}")) as error:
        StudySettings.load(path)
    assert "\n" not in str(error.value)


def test_perturbed_pairs_are_drawn_afresh_on_every_pass():
    images = np.random.default_rng(0).integers(0, 256, (5, 16, 16, 3), dtype=np.uint8)
    pairs = PerturbedPairs(images, "imagenet_c_gaussian_noise", (0.5,) * 3, (0.5,) * 3, batch_size=2, seed=0)
    first, second = list(pairs), list(pairs)
    assert len(pairs) == 3 and [b[0].shape[:2] for b in first] == [(2, 2), (2, 2), (1, 2)]
    clean = {int(i): x[0] for batch, index in first for x, i in zip(batch, index)}
    np.testing.assert_allclose(clean[0].numpy(), ((images[0] / 255.0 - 0.5) / 0.5).transpose(2, 0, 1), atol=1e-6)
    assert not torch.equal(torch.cat([b[0][:, 1] for b in first]), torch.cat([b[0][:, 1] for b in second]))


def test_robustness_finetune_pulls_perturbed_embeddings_together_and_leaves_the_original():
    model = build_standin("tiny_clip", num_classes=0, image_size=16, seed=0)
    before = {k: v.clone() for k, v in model.state_dict().items()}
    images = np.random.default_rng(1).integers(0, 256, (32, 16, 16, 3), dtype=np.uint8)
    config = TrainConfig(epochs=3, batch_size=16, base_lr=1e-3, reference_batch=16, optimizer="adamw")
    tuned = robustness_finetune(model, images, "imagenet_c_gaussian_noise", 0.0, (0.5,) * 3, (0.5,) * 3, config)
    assert all(torch.equal(v, model.state_dict()[k]) for k, v in before.items())
    text = [k for k in before if not k.startswith("visual.")]
    assert all(torch.equal(before[k], tuned.state_dict()[k]) for k in text)  # only the image tower moves

    def distance(network):
        pairs = next(iter(PerturbedPairs(images, "imagenet_c_gaussian_noise", (0.5,) * 3, (0.5,) * 3, 32, seed=9)))[0]
        with torch.no_grad():
            a, b = network.encode_image(pairs[:, 0]), network.encode_image(pairs[:, 1])
        return float(1 - torch.nn.functional.cosine_similarity(a, b).mean())

    assert distance(tuned) < distance(model)


def small_settings() -> StudySettings:
    """The tiny tier cut to two perturbations, a few images, one pretrained CLIP and a short fine-tuning."""
    settings = StudySettings.load(TINY)
    return dataclasses.replace(
        settings, perturbations=["imagenet_c_gaussian_noise", "jpeg_compression"], n_images=6, n_train=40,
        sampling_study={**settings.sampling_study, "perturbation": "jpeg_compression", "m_values": [2, 5]},
        finetune={**settings.finetune, "n_train": 16, "lambdas": [0, 1]})


@pytest.fixture(scope="module")
def our_run(tmp_path_factory):
    root = tmp_path_factory.mktemp("results")
    settings = small_settings()
    assert Study(settings, root).precompute() == 2 * (2 + 2) + 1 + 3  # per dataset 2 metrics + 2 heads; sampling; 3 tunings
    study = Study(settings, root)
    metrics, predictions = study.run()
    sampling, finetune = study.analyses()
    return root, ours.OurRun(settings, "tiny", metrics, predictions, sampling, finetune)


def test_pretrained_weights_and_analyses_are_stored_and_read_back(our_run, monkeypatch):
    root, run = our_run
    assert len(list((root / "fm_perturbations" / "weights").glob("*.pt"))) == 1  # tiny pretrains the CLIP only
    monkeypatch.setattr("lib.fm_perturbations.training.pretrain_standin", lambda *a, **k: pytest.fail("retrained"))
    monkeypatch.setattr(Study, "_finetuned", lambda *a, **k: pytest.fail("a stored run was recomputed"))
    sampling, finetune = Study(run.settings, root).analyses()
    np.testing.assert_array_equal(sampling["value"], run.sampling["value"])
    assert set(finetune["state"]) == {"before", "after"} and set(finetune["metric"]) == {"cosine", "divergence_radius",
                                                                                          "ACC", "ACC_p"}
    equal = sampling[sampling["sampling"] == "equal"]
    assert set(equal["m"]) == {2, 5} and set(sampling["repeat"]) == {0, 1} and equal["item"].nunique() == 4


def test_precompute_runs_only_for_the_study_notebooks(tmp_path):
    assert precompute({"study_params": TINY, "results_dir": str(tmp_path)}, ["table01", "figure01"]) == 0
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize("draw", [lambda r: ours.our_table(r, "table02"), lambda r: ours.our_table(r, "table03"),
                                  ours.figure03, ours.figure04, lambda r: ours.accuracy_vs_radius(r, "figure05"),
                                  lambda r: ours.accuracy_vs_radius(r, "figure06"), ours.figure07, ours.table09,
                                  *(ours.PANELS[a] for a in ("figure10", "figure11", "figure12", "figure13", "figure14"))])
def test_notebook_functions_draw_in_the_one_schema_and_give_findings(our_run, draw):
    fig, data, findings = draw(our_run[1])
    assert isinstance(findings, Findings) and len(findings) > 0
    assert list(data.columns[:len(COLUMNS)]) == list(COLUMNS) and set(data["source"]) <= {"paper", "ours"}
    assert (data.loc[data["source"] == "ours", "tier"] == "tiny").all() and np.isfinite(data["value"]).any()
    matplotlib.pyplot.close(fig)


def test_our_table_holds_the_printed_cells_beside_ours(our_run):
    fig, data, _ = ours.our_table(our_run[1], "table02")
    heatmaps = [ax for ax in fig.axes if ax.collections and ax.collections[0].colorbar is not None]
    assert [ax.get_title().split(":")[0] for ax in heatmaps] == ["paper", "ours (tiny)"]  # one image, paper | ours
    assert all(ax.collections[0].colorbar.ax.get_ylabel() == "drop ACC − ACC_p (points)" for ax in heatmaps)
    matplotlib.pyplot.close(fig)
    paper = data[data["source"] == "paper"]
    assert len(paper) == 2 + 2 * 9 * 2 and paper["eval_dataset"].str.startswith("ImageNet").all()
    assert set(data.loc[data["source"] == "ours", "eval_dataset"]) >= {"digits: clean", "digits: Gaussian noise"}


@pytest.mark.parametrize("artefact", list(ours.GRIDS))
def test_each_grid_draws_its_metric_on_its_dataset(our_run, artefact):
    run = our_run[1]
    fig, data, _ = ours.metric_grid(run, artefact)
    grid = ours.GRIDS[artefact]
    expected = ours.radius_means(run, run.dataset(artefact), grid.metric).stack()
    drawn = data.set_index(["model", "method"])["value"]
    assert set(data["metric"]) == {grid.metric} and set(data["eval_dataset"]) == {run.dataset(artefact)}
    np.testing.assert_allclose(drawn.loc[expected.index], expected)
    matplotlib.pyplot.close(fig)


def test_rank_correlation_known_answers():
    assert ours.rank_correlation(np.array([1.0, 2, 3]), np.array([10.0, 20, 30])) == pytest.approx(1.0)
    assert ours.rank_correlation(np.array([1.0, 2, 3]), np.array([3.0, 2, 1])) == pytest.approx(-1.0)


def test_regression_errors_per_head_predictor_and_perturbation(our_run):
    run = our_run[1]
    _, data, findings = ours.regression_errors(run, "figure10")
    heads, k = data["method"].nunique(), len(run.settings.perturbations)
    assert len(data) == heads * k * 3 and (data["value"] >= 0).all()
    assert len(findings) == heads * 3


def test_the_resnet_vit_pairs_are_the_papers_at_full_and_the_stand_ins_at_mini():
    import yaml

    from lib.fm_perturbations.ours import RESNET_VIT_PAIRS
    from lib.models.registry import registry

    def pairs(tier: str) -> list[tuple[str, str]]:
        models = set(yaml.safe_load(open(f"params/{tier}/fm_perturbations/study.yaml"))["models"])
        return [pair for pair in RESNET_VIT_PAIRS if set(pair) <= models]

    assert pairs("full") == [("fm_clip_rn50_openai", "fm_clip_vit_b16_openai"),
                             ("fm_clip_rn50x64_openai", "fm_clip_vit_l14_openai")]
    assert all(key in registry() for pair in pairs("full") for key in pair)
    assert pairs("mini") == [("tiny_resnet", "tiny_vit")] and pairs("tiny") == []
