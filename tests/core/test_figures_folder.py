"""The committed mini figures (`figures/<paper>/`, written by `make figures`): no two files of different
names are the same image, so no artefact's figure is a copy of another's under a second name."""

import hashlib
from collections import defaultdict

from lib.paths import REPO_ROOT


def test_no_two_figures_are_the_same_file():
    names = defaultdict(list)
    for path in sorted((REPO_ROOT / "figures").glob("*/*.png")):
        names[hashlib.sha256(path.read_bytes()).hexdigest()].append(str(path.relative_to(REPO_ROOT)))
    copies = [paths for paths in names.values() if len(paths) > 1]
    assert not copies, f"the same image under several names: {copies}"
