"""Table 8 is read from the perturbation registry and its examples are the severe ends."""

import numpy as np

from lib.fm_perturbations.accuracies import PERTURBATIONS as PAPER_ORDER
from lib.fm_perturbations.perturbation_table import embedded_photo, severe_examples, table08_frame
from lib.perturb.corruptions import CORRUPTIONS


def test_one_row_per_perturbation_in_the_papers_order_with_its_registry_domain():
    frame = table08_frame()
    assert list(frame["perturbation"]) == list(PAPER_ORDER)
    for row in frame.to_dict("records"):
        c = CORRUPTIONS[row["registry name"]]
        assert (row["K low"], row["K high"]) == c.domain and row["severe end"] == c.severe_end in c.domain


def test_severe_examples_keep_shape_and_dtype_and_change_the_image():
    image = embedded_photo("chelsea", 24)
    assert image.shape == (24, 24, 3) and image.dtype == np.uint8
    examples = severe_examples(image, seed=0)
    assert set(examples) == set(CORRUPTIONS)
    for picture in examples.values():
        assert picture.shape == image.shape and picture.dtype == np.uint8
        assert np.abs(picture.astype(int) - image).mean() > 0
