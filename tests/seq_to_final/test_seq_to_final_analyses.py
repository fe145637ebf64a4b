"""Known answers for Seq-to-Final's analyses: the shift metrics of Tables 5-6, linear interpolation paths,
weight distances and projections, and SVCCA."""

import copy

import numpy as np
import pandas as pd
import pytest
import torch
from sklearn.decomposition import PCA

from lib.metrics.svcca import canonical_correlations, directions_kept, svcca_similarity, top_directions
from lib.seq_to_final.architectures import all_parameters, build, table7_parameters
from lib.seq_to_final.interpolation_paths import (PAPER_ALPHAS, interpolated_model, interpolation_path, path_ends,
                                                  recompute_batchnorm_statistics)
from lib.seq_to_final.methods import JointModel, accuracy
from lib.seq_to_final.model_geometry import (ENTIRE_MODEL, adjacent_distances, decomposed_layers, layer_activations,
                                             parameter_vectors, projection_length, svcca_to_reference,
                                             weight_projections)
from lib.seq_to_final.sequence import ShiftSequence, Split, as_inputs, build as build_sequence, synthetic_spec
from lib.seq_to_final.shift_metrics import (POT_DEFAULT_ITERATIONS, components_kept, conditional_wasserstein2,
                                            pixel_components, shift_metrics, wasserstein2)


@pytest.fixture(scope="module", autouse=True)
def one_thread():
    torch.set_num_threads(1)


@pytest.fixture(scope="module")
def clr() -> ShiftSequence:
    return build_sequence(synthetic_spec("CLR", "digits", (100, 50, 100, 50), 50, image_size=8))


@pytest.fixture(scope="module")
def test_data(clr):
    test = clr.final("test")
    return torch.from_numpy(as_inputs(test.images)), torch.from_numpy(test.labels)


# ------------------------------------------------------------------------------------------ shift metrics

def test_wasserstein2_of_a_cloud_against_itself_and_its_translation():
    rng = np.random.default_rng(0)
    cloud, shift = rng.normal(size=(40, 5)), np.array([3.0, -1.0, 0.5, 2.0, 0.0])
    assert wasserstein2(cloud, cloud) == pytest.approx(0.0, abs=1e-6)
    # squared cost: W2 of a translation is the translation's norm; Eq. 3 as printed: sqrt(W1) = sqrt(norm)
    assert wasserstein2(cloud, cloud + shift) == pytest.approx(np.linalg.norm(shift))
    assert wasserstein2(cloud, cloud + shift, "euclidean") == pytest.approx(np.sqrt(np.linalg.norm(shift)))
    assert wasserstein2(cloud, cloud + shift, max_iterations=POT_DEFAULT_ITERATIONS) == pytest.approx(np.linalg.norm(shift))
    with pytest.raises(ValueError, match="ground_cost"):
        wasserstein2(cloud, cloud, "cosine")


def test_conditional_wasserstein2_weights_classes_by_the_second_set():
    rng = np.random.default_rng(1)
    x0 = rng.normal(size=(30, 3))
    y0 = np.repeat([0, 1, 2], 10)
    y1 = np.array([0] * 10 + [1] * 5 + [2] * 5)          # P̂_1 = (.5, .25, .25)
    # class 0 translated by 1; classes 1 and 2: half of their points, translated by 2 and 4
    x1 = np.concatenate([x0[:10] + [1.0, 0, 0], x0[10:15] + [0, 2.0, 0], x0[20:25] + [0, 0, 4.0]])
    expected = (0.5 * 1.0 + 0.25 * wasserstein2(x0[10:20], x1[10:15]) + 0.25 * wasserstein2(x0[20:30], x1[15:20]))
    assert conditional_wasserstein2(x0, y0, x1, y1) == pytest.approx(expected)
    assert conditional_wasserstein2(x0, y0, x0 + [0, 0, 3.0], y0) == pytest.approx(3.0)
    with pytest.raises(ValueError, match="no samples in the first"):
        conditional_wasserstein2(x0[:10], y0[:10], x1, y1)


def test_components_kept_follows_the_code():
    ratios = np.array([0.5, 0.3, 0.15, 0.05])
    assert components_kept(ratios, 0.95) == 3       # cumulative .5 .8 .95 1.0: searchsorted(.95) = 2, + 1
    assert components_kept(ratios, 0.96) == 4
    assert components_kept(np.array([0.4, 0.3]), 0.95) == 2   # never more than were fitted


def test_shift_metrics_are_one_at_the_final_step_and_for_a_sequence_that_never_shifts(clr):
    frame = shift_metrics(clr)
    assert frame["step"].tolist() == [0, 1, 2, 3]
    assert frame.iloc[-1][["W_X", "W_XgivenY"]].tolist() == pytest.approx([1.0, 1.0])
    assert (frame["W2_X"] > 0).all() and 0 < frame["n_components"].iloc[0] <= 100
    features = pixel_components(clr)
    assert [len(x) for x in features.train] == [80, 40, 80, 40] and len(features.test) == 50
    assert wasserstein2(features.train[1], features.train[1]) == pytest.approx(0.0, abs=1e-4)  # sqrt of a rounding error on pixel scale
    final = clr.steps[-1]
    still = ShiftSequence(clr.spec, tuple({"train": final["train"], "valid": final["valid"]} for _ in range(3))
                          + (final,), clr.num_classes)
    assert shift_metrics(still)[["W_X", "W_XgivenY"]].to_numpy() == pytest.approx(np.ones((4, 2)))


def test_shift_metrics_of_a_translated_step_scale_with_the_translation():
    rng = np.random.default_rng(2)
    labels = np.repeat(np.arange(2), 20)
    images = rng.integers(0, 50, size=(40, 4, 4, 3)).astype(np.uint8)
    split = Split(images, labels, np.arange(40))
    moved = Split(images + 100, labels, np.arange(40))
    sequence = ShiftSequence(None, ({"train": moved}, {"train": split, "test": split}), 2)
    frame = shift_metrics(sequence)
    # the final train and test splits coincide, so the normaliser is 0: the raw W2s carry the answer
    assert frame["W2_X"].iloc[1] == pytest.approx(0.0, abs=1e-4)  # sqrt of a rounding error on pixel scale
    # a translation by 100 in all 48 pixels keeps its norm in a PCA fitted on both clouds (rotation + mean)
    expected = 100 * np.sqrt(48) * np.sqrt(np.sum(_kept_direction_weights(images)))
    assert frame["W2_X"].iloc[0] == pytest.approx(expected, rel=1e-6)
    assert frame["W2_XgivenY"].iloc[0] == pytest.approx(expected, rel=1e-6)


def _kept_direction_weights(images: np.ndarray) -> np.ndarray:
    """The squared cosines between the translation and the PCA components the metric keeps."""
    flat = np.concatenate([images + 100, images]).reshape(80, -1).astype(np.float64)
    pca = PCA(n_components=min(100, *flat.shape), svd_solver="full").fit(flat)
    k = components_kept(pca.explained_variance_ratio_)
    direction = np.ones(flat.shape[1]) / np.sqrt(flat.shape[1])
    return (pca.components_[:k] @ direction) ** 2


# ------------------------------------------------------------------------------------ interpolation paths

def _two_models(architecture: str = "Res-1"):
    torch.manual_seed(0)
    start, end = build(architecture, 10), build(architecture, 10)
    with torch.no_grad():
        for module in end.modules():
            if isinstance(module, torch.nn.BatchNorm2d):
                module.running_mean.uniform_(-1, 1)
                module.running_var.uniform_(0.5, 2)
    return start.eval(), end.eval()


def test_a_side_tuned_path_starts_from_its_sides_on_the_start_models_stem_and_head():
    import copy

    from lib.seq_to_final.methods import SideTunedNet

    start, end = _two_models("Conv-1")
    for ends, model in zip(path_ends(start, end), (start, end)):  # an ordinary path: between the two models
        assert all(torch.equal(value, model.state_dict()[name]) for name, value in ends.items())
    side_tuned = SideTunedNet(copy.deepcopy(end), image_size=8)
    side_tuned.add_sides("layer", stem_and_head=False)
    first, last = path_ends(start, side_tuned)
    assert first.keys() == last.keys() == side_tuned.state_dict().keys()
    for name, value in first.items():
        mine = name.startswith(("stem.", "head."))
        assert torch.equal(value, (start if mine else side_tuned).state_dict()[name]), name
    assert any(name.startswith("sides.") for name in first)


@pytest.mark.parametrize("batchnorm", ["code", "interpolated"])
def test_path_endpoints_are_the_two_models(batchnorm, test_data):
    start, end = _two_models()
    path = interpolation_path(start, start.state_dict(), end.state_dict(), test_data, alphas=(0.0, 0.5, 1.0),
                              batchnorm=batchnorm)
    assert path["alpha"].tolist() == [0.0, 0.5, 1.0]
    assert path["accuracy"].iloc[0] == accuracy(start, test_data)
    assert path["accuracy"].iloc[-1] == accuracy(end, test_data)


@pytest.mark.parametrize("batchnorm", ["code", "interpolated", "recomputed"])
def test_a_path_reusing_one_copy_equals_a_fresh_copy_at_every_point(batchnorm, test_data):
    start, end = _two_models()
    alphas = (1.0, 0.5, 0.0, 0.3)  # out of order: nothing of the point before may survive in the copy
    path = interpolation_path(start, start.state_dict(), end.state_dict(), test_data, alphas, batchnorm, test_data, 10)
    fresh = [accuracy(interpolated_model(start, start.state_dict(), end.state_dict(), s, batchnorm, test_data, 10),
                      test_data) for s in alphas]
    assert path["accuracy"].tolist() == fresh


def test_batchnorm_readings_at_the_midpoint():
    start, end = _two_models()
    key = "stem.1.running_mean"
    code = interpolated_model(start, start.state_dict(), end.state_dict(), 0.5, "code").state_dict()
    full = interpolated_model(start, start.state_dict(), end.state_dict(), 0.5, "interpolated").state_dict()
    assert torch.equal(code[key], start.state_dict()[key])
    assert torch.allclose(full[key], (start.state_dict()[key] + end.state_dict()[key]) / 2)
    assert torch.allclose(code["stem.0.weight"], (start.stem[0].weight + end.stem[0].weight) / 2)
    with pytest.raises(ValueError, match="statistics_data"):
        interpolated_model(start, start.state_dict(), end.state_dict(), 0.5, "recomputed")
    with pytest.raises(ValueError, match="batchnorm must be"):
        interpolated_model(start, start.state_dict(), end.state_dict(), 0.5, "frozen")


def test_recomputed_statistics_are_the_data_statistics(test_data):
    start, end = _two_models("Conv-1")
    # five equal batches: the cumulative average of their means is the mean over all 50 inputs
    model = interpolated_model(start, start.state_dict(), end.state_dict(), 0.3, "recomputed", test_data, batch_size=10)
    with torch.no_grad():
        features = model.stem[0](test_data[0])
    assert not model.training and model.stem[1].momentum == start.stem[1].momentum
    np.testing.assert_allclose(model.stem[1].running_mean.numpy(), features.mean(dim=(0, 2, 3)).numpy(),
                               rtol=1e-4, atol=1e-3)
    one_batch = copy.deepcopy(model)
    recompute_batchnorm_statistics(one_batch, test_data, batch_size=50)
    np.testing.assert_allclose(one_batch.stem[1].running_var.numpy(), features.var(dim=(0, 2, 3)).numpy(), rtol=1e-4)


def test_recomputed_paths_of_every_kind_of_end_start_at_the_same_model(test_data):
    """At s = 0 a path from the previous step's model starts at that model whatever the end: a fine-tuned
    one, or a side-tuned one whose frozen base (BatchNorm hooks and all, a deep copy) the recomputation
    must re-estimate like any other layer."""
    from lib.seq_to_final.methods import SideTunedNet, freeze

    start, end = _two_models("Conv-1")
    side_tuned = SideTunedNet(copy.deepcopy(start), image_size=8)
    freeze(side_tuned)
    side_tuned = copy.deepcopy(side_tuned)  # what the stored runs hand the path: a copy of the frozen model
    side_tuned.add_sides("layer", stem_and_head=False)
    starts = [interpolated_model(e, *path_ends(start, e), 0.0, "recomputed", test_data, 10) for e in (end, side_tuned)]
    fine_tuned, side = (m.state_dict() for m in starts)
    assert all(torch.equal(fine_tuned[name], side[name]) for name in fine_tuned)
    assert accuracy(starts[0], test_data) == accuracy(starts[1], test_data)


def test_paper_alphas():
    assert len(PAPER_ALPHAS) == 101 and PAPER_ALPHAS[:3] == (0.0, 0.01, 0.02) and PAPER_ALPHAS[-2:] == (0.99, 1.0)


# --------------------------------------------------------------------------- weight distances and projections

def test_parameter_vectors_follow_table7_and_the_layers():
    model = build("Res-1", 10)
    vectors = parameter_vectors(model)
    assert list(vectors) == ["stem", "blocks.0", "head"]
    assert sum(len(v) for v in vectors.values()) == table7_parameters(model)
    assert sum(len(v) for v in parameter_vectors(model, "all").values()) == all_parameters(model)


def test_adjacent_distances_of_a_joint_model():
    torch.manual_seed(0)
    first = build("Conv-1", 10)
    second, third = copy.deepcopy(first), copy.deepcopy(first)
    with torch.no_grad():
        for parameter in third.parameters():
            parameter.add_(0.5)
    frame = adjacent_distances(JointModel([first, second, third]))
    whole = frame[frame["layer"] == ENTIRE_MODEL].set_index("step")["distance"]
    n = sum(p.numel() for p in first.parameters())
    assert whole[1] == 0.0 and whole[2] == pytest.approx(0.5 * np.sqrt(n))
    assert set(frame["layer"]) == {"stem", "blocks.0", "head", ENTIRE_MODEL}


def test_projection_of_a_direction_onto_itself_is_its_norm():
    direction = np.array([3.0, 4.0, 0.0])
    assert projection_length(direction, direction) == pytest.approx(5.0)
    assert projection_length(-direction, direction) == pytest.approx(-5.0)
    assert projection_length(-direction, direction, "length") == pytest.approx(5.0)
    assert projection_length(np.array([0.0, 0.0, 2.0]), direction) == 0.0


def test_weight_projections_place_the_reference_models():
    torch.manual_seed(0)
    oracle, historical, final_only = (build("Conv-1", 10) for _ in range(3))
    at_oracle = weight_projections(oracle, oracle, historical, final_only)
    assert at_oracle[["x", "y"]].to_numpy() == pytest.approx(np.zeros((4, 2)))
    at_historical = weight_projections(historical, oracle, historical, final_only).set_index("layer")
    distance = np.linalg.norm(np.concatenate(list(parameter_vectors(historical).values()))
                              - np.concatenate(list(parameter_vectors(oracle).values())))
    assert at_historical.loc[ENTIRE_MODEL, "x"] == pytest.approx(distance)


# ------------------------------------------------------------------------------------------------- SVCCA

def test_directions_kept_follow_the_code():
    s = np.array([3.0, 1.0])
    assert directions_kept(s, 0.5) == 1          # fractions .75, 1
    assert directions_kept(s, 0.75) == 2         # searchsorted(side="right") + 1
    assert directions_kept(s, 1.0) == 2
    assert directions_kept(s, 0.85, "variance") == 1   # fractions .9, 1


def test_canonical_correlations_match_the_covariance_formula():
    rng = np.random.default_rng(3)
    x = rng.normal(size=(500, 4))
    y = x[:, :3] @ rng.normal(size=(3, 5)) + rng.normal(size=(500, 5))
    xc, yc = x - x.mean(0), y - y.mean(0)
    sxx, syy, sxy = xc.T @ xc, yc.T @ yc, xc.T @ yc

    def inverse_root(m):
        values, vectors = np.linalg.eigh(m)
        return vectors @ np.diag(values ** -0.5) @ vectors.T

    expected = np.linalg.svd(inverse_root(sxx) @ sxy @ inverse_root(syy), compute_uv=False)
    np.testing.assert_allclose(canonical_correlations(x, y), expected, atol=1e-10)


def test_svcca_of_an_invertible_map_is_one_and_of_noise_near_zero():
    rng = np.random.default_rng(4)
    a = rng.normal(size=(2000, 6)) @ rng.normal(size=(6, 6))
    mapped = a @ rng.normal(size=(6, 6)) + 5.0
    assert svcca_similarity(a, mapped, level=1.0) == pytest.approx(1.0)
    assert svcca_similarity(a, a, level=0.5, spectrum="singular_values") == pytest.approx(1.0)
    assert svcca_similarity(a, rng.normal(size=(2000, 6)), level=1.0) < 0.1
    assert top_directions(a, 1.0).shape == (2000, 6)


def test_layer_activations_and_svcca_to_the_model_itself(test_data):
    torch.manual_seed(0)
    model = build("Conv-2", 10).eval()
    inputs = test_data[0]
    activations = layer_activations(model, inputs, batch_size=16)
    assert list(activations) == ["stem", "blocks.0", "blocks.1", "head"]
    with torch.no_grad():
        np.testing.assert_allclose(activations["head"], model(inputs).double().numpy(), rtol=1e-5, atol=1e-5)
    for entire in ("layer_mean", "concatenated"):
        frame = svcca_to_reference(activations, activations, entire=entire)
        assert len(frame) == 2 * 5 and frame["similarity"].to_numpy() == pytest.approx(np.ones(10))
    other = layer_activations(build("Conv-2", 10), inputs)
    frame = svcca_to_reference(other, activations)
    means = frame[frame["layer"] != ENTIRE_MODEL].groupby("level")["similarity"].mean()
    assert frame[frame["layer"] == ENTIRE_MODEL].set_index("level")["similarity"].to_numpy() == pytest.approx(means.to_numpy())


def test_svcca_to_a_decomposed_reference_is_the_same_to_the_last_bit(test_data):
    torch.manual_seed(1)
    inputs = test_data[0]
    reference, other = (layer_activations(build("Conv-2", 10).eval(), inputs) for _ in range(2))
    for entire in ("layer_mean", "concatenated"):
        pd.testing.assert_frame_equal(svcca_to_reference(other, decomposed_layers(reference, entire), entire=entire),
                                      svcca_to_reference(other, reference, entire=entire), check_exact=True)
    with pytest.raises(ValueError, match="entire='concatenated'"):
        svcca_to_reference(other, decomposed_layers(reference, "layer_mean"), entire="concatenated")
