"""lib.seq_to_final.training: one method run to per-item predictions, deterministic in its seed."""

from dataclasses import replace

import pandas as pd
import pytest
import torch

from lib.evaluate.frames import hits, prediction_columns
from lib.seq_to_final import methods
from lib.seq_to_final.methods import Hyper, Settings
from lib.seq_to_final.sequence import synthetic_spec
from lib.seq_to_final.study import same_run
from lib.seq_to_final.tables import SIDE_BLOCK_PAIRS
from lib.seq_to_final.training import run, sequence_for
from lib.store import StageCache

TINY = Settings(lrs=(1e-3,), weight_decays=(1e-4,), dropouts=(0.0, 0.5), max_epochs=2, patience=1, batch_size=20,
                adjacent_grid=(0.1,), ewc_grid=(1e-2,))
SPEC = synthetic_spec("RCL", "digits", (60, 40, 60, 40), 30, image_size=8)


@pytest.fixture(autouse=True, scope="module")
def one_thread():
    torch.set_num_threads(1)


def test_frame_is_the_shared_prediction_format():
    frame = run(SPEC, "FT", "Conv-1", TINY, seed=0)
    assert len(frame) == 30 and frame["item"].tolist() == list(range(30))
    assert prediction_columns(frame) == [f"pred_{r}" for r in range(1, 6)]
    assert set(frame[["method", "column", "architecture", "seed"]].drop_duplicates().itertuples(index=False)) == {
        ("FT", "FT", "Conv-1", 0)}
    assert frame["pool_index"].is_unique and 0 <= hits(frame).mean() <= 1


@pytest.mark.parametrize("method", ["Baseline", "JM", "SST-1", "I-FT"])
def test_same_seed_gives_identical_frames(method):
    first = run(SPEC, method, "Conv-1", TINY, seed=3)
    second = run(SPEC, method, "Conv-1", TINY, seed=3)
    pd.testing.assert_frame_equal(first, second)


def test_another_seed_gives_another_run():
    first, other = run(SPEC, "Baseline", "Conv-1", TINY, seed=0), run(SPEC, "Baseline", "Conv-1", TINY, seed=1)
    assert not first[prediction_columns(first)].equals(other[prediction_columns(other)])


def test_the_oracle_reads_the_oracle_sequence_with_the_same_test_images():
    assert sequence_for(SPEC, "Oracle").sizes == (60, 40, 60, 200) and sequence_for(SPEC, "FT") == SPEC
    oracle, baseline = run(SPEC, "Oracle", "Conv-1", TINY, seed=0), run(SPEC, "Baseline", "Conv-1", TINY, seed=0)
    assert sorted(oracle["pool_index"]) == sorted(baseline["pool_index"])
    with pytest.raises(ValueError, match="unknown method"):
        sequence_for(SPEC, "oracle")


@pytest.mark.parametrize("block, layer", sorted(SIDE_BLOCK_PAIRS.items()))
def test_block_side_variants_are_the_one_layer_ones_on_a_conv_net(block, layer):
    """Why the study reads ST-B, SST-B and JST-B from the 1-layer runs on Conv-n (`study.same_run`): a Conv-n
    block is one Conv 3×3 → BN, so both runs predict alike, item for item."""
    assert same_run("Conv-2", block) == layer and same_run("Res-2", block) is None and same_run("Conv-2", layer) is None
    single = run(SPEC, layer, "Conv-1", TINY, seed=0)
    columns = ["item", "target", *prediction_columns(single)]
    pd.testing.assert_frame_equal(run(SPEC, block, "Conv-1", TINY, seed=0)[columns], single[columns])



class CountingStages(StageCache):
    """A `StageCache` that records each stage it trains (rather than reads back)."""

    def __init__(self, root, paper):
        super().__init__(root, paper)
        self.trained = []

    def get(self, spec, compute):
        return super().get(spec, lambda: self.trained.append(spec["stage"]) or compute())


@pytest.mark.parametrize("stage, first, later", [("pretrain ERM", "FT", ["ST-1", "LP-FT"]),
                                                 ("source ERM", "SFT", ["SST-1", "EWC"])])
def test_a_stage_is_trained_once_and_every_run_predicts_as_without_it(tmp_path, stage, first, later):
    """The methods that start from one stage read it back from `StageCache` instead of training it again, and
    predict item for item as they do training it themselves: the global random state is left as the stage's
    training left it (ST-1 and SST-1 draw their new stem and head from it next)."""
    stages = CountingStages(tmp_path, "seq_to_final")
    for method in [first, *later]:
        pd.testing.assert_frame_equal(run(SPEC, method, "Conv-1", TINY, seed=0, stages=stages),
                                      run(SPEC, method, "Conv-1", TINY, seed=0))
    assert stages.trained == [stage] and len(list(stages.dir.glob("*.pt"))) == 1


def test_settings_that_differ_only_where_an_erm_fit_does_not_read_share_its_stage(tmp_path):
    """Why the analysis runs share the study's stages: their joint-model and EWC settings differ, and an ERM fit
    reads neither (`methods.NOT_READ_BY_ERM_FITS`): FT under them, from the stage trained under the first
    settings, predicts as FT trained alone under them. Another learning rate is another stage."""
    stages = CountingStages(tmp_path, "seq_to_final")
    unread = dict(irm_penalty=3.0, joint=Hyper(1e-2, 0.0, 0.0), final_loss_weight=1.0, adjacent_grid=(1.0,),
                  ewc_grid=(1.0,), ewc_fisher="per_example", linear_decays=((1e-2, 1e-3),),
                  exponential_decays=((1e-2, 0.9),), pretrain_includes_final=False, side_stem_head_init="previous")
    assert set(unread) == set(methods.NOT_READ_BY_ERM_FITS)
    for settings in (TINY, replace(TINY, **unread), replace(TINY, lrs=(1e-2,))):
        pd.testing.assert_frame_equal(run(SPEC, "FT", "Conv-1", settings, seed=0, stages=stages),
                                      run(SPEC, "FT", "Conv-1", settings, seed=0))
    assert stages.trained == ["pretrain ERM", "pretrain ERM"]
