from pathlib import Path

import pytest

from lib.params import ParamsError, check_defaults, declared_parameters, load_for_notebook, validate
from lib.paths import REPO_ROOT

NOTEBOOK = '''# %%
import math

# %% tags=["parameters"]
output_dir: str = "out"
seeds: list[int] = [0, 1]
learning_rate: float = 0.1
epochs: int = 3
use_bn: bool = True

# %%
print(output_dir)
'''


@pytest.fixture
def notebook(tmp_path: Path) -> Path:
    path = tmp_path / "nb.py"
    path.write_text(NOTEBOOK)
    return path


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "p.yaml"
    path.write_text(text)
    return path


GOOD = "output_dir: x\nseeds: [1, 2]\nlearning_rate: 1\nepochs: 5\nuse_bn: false\n"


def test_declared_parameters_read_types_and_defaults(notebook):
    declared = declared_parameters(notebook)
    assert list(declared) == ["output_dir", "seeds", "learning_rate", "epochs", "use_bn"]
    assert declared["seeds"].annotation == "list[int]" and declared["seeds"].default == [0, 1]


def test_valid_file_passes_and_int_is_accepted_as_float(notebook, tmp_path):
    assert load_for_notebook(write(tmp_path, GOOD), notebook)["learning_rate"] == 1


def test_misspelled_key_is_named(notebook, tmp_path):
    path = write(tmp_path, GOOD.replace("epochs", "epoch"))
    with pytest.raises(ParamsError, match=r"unknown parameter\(s\) \['epoch'\]") as error:
        load_for_notebook(path, notebook)
    assert str(path) in str(error.value)


def test_missing_key_is_named(notebook, tmp_path):
    with pytest.raises(ParamsError, match=r"missing parameter\(s\) \['use_bn'\]"):
        load_for_notebook(write(tmp_path, GOOD.replace("use_bn: false\n", "")), notebook)


@pytest.mark.parametrize(
    "line, key",
    [("epochs: 2.5", "epochs"), ("epochs: true", "epochs"), ("seeds: [1, a]", "seeds"), ("use_bn: 1", "use_bn")],
)
def test_wrong_type_is_named(notebook, tmp_path, line, key):
    name = line.split(":")[0]
    text = "\n".join(line if row.startswith(name + ":") else row for row in GOOD.splitlines())
    with pytest.raises(ParamsError, match=f"parameter '{key}' must be"):
        load_for_notebook(write(tmp_path, text), notebook)


def test_parameters_cell_must_be_typed(tmp_path):
    path = tmp_path / "bad.py"
    path.write_text('# %% tags=["parameters"]\nseed = 0\n')
    with pytest.raises(ParamsError, match="typed assignments"):
        declared_parameters(path)


def test_validate_rejects_a_non_mapping_file(notebook, tmp_path):
    with pytest.raises(ParamsError, match="expected a mapping"):
        load_for_notebook(write(tmp_path, "- a\n- b\n"), notebook)
    assert validate({}, {}, "x") == {}


def test_cli_stops_on_a_misspelled_key_before_running(tmp_path, monkeypatch, capsys):
    from lib import cli, manifest

    notebook = tmp_path / "nb.py"
    notebook.write_text(NOTEBOOK)
    params = write(tmp_path, GOOD.replace("epochs", "epoch"))
    entry = manifest.Entry("ssl_protocols", "figure99", "figure", "", str(notebook), ("tiny",), "published")
    monkeypatch.setattr(manifest, "read", lambda path=None: [entry])
    monkeypatch.setattr(manifest.Entry, "params_path", lambda self, tier: params)
    ran = []
    monkeypatch.setattr("papermill.execute_notebook", lambda *a, **k: ran.append(a))
    assert cli.main(["run", "--tier", "tiny"]) == 2
    assert "unknown parameter(s) ['epoch']" in capsys.readouterr().err
    assert ran == []


def test_a_params_file_holds_only_what_differs_from_the_defaults_beside_it(notebook, tmp_path):
    (tmp_path / "defaults.yaml").write_text("output_dir: figures/x\nseeds: [0]\nlearning_rate: 0.5\nepochs: 2\nuse_bn: true\n"
                                            "study_params: s.yaml\n")  # a key this notebook does not declare is not injected
    values = load_for_notebook(write(tmp_path, "epochs: 7\n"), notebook)
    assert values == {"output_dir": "figures/x", "seeds": [0], "learning_rate": 0.5, "epochs": 7, "use_bn": True}


def test_the_file_itself_may_not_hold_an_unknown_or_mistyped_key(notebook, tmp_path):
    (tmp_path / "defaults.yaml").write_text(GOOD)
    with pytest.raises(ParamsError, match=r"unknown parameter\(s\) \['epoch'\]"):
        load_for_notebook(write(tmp_path, "epoch: 7\n"), notebook)
    with pytest.raises(ParamsError, match="parameter 'epochs' must be int"):
        load_for_notebook(write(tmp_path, "epochs: many\n"), notebook)


def test_a_defaults_key_no_notebook_declares_is_named(notebook, tmp_path):
    (tmp_path / "defaults.yaml").write_text(GOOD + "reslts_dir: r\n")
    with pytest.raises(ParamsError, match=r"defaults.yaml: unknown parameter\(s\) \['reslts_dir'\]"):
        check_defaults(tmp_path, [notebook])
    check_defaults(tmp_path / "nowhere", [notebook])  # no defaults file: nothing to check


def test_tier_of_reads_the_folder():
    from lib.params import tier_of

    assert tier_of("params/mini/imagenet_rib/benchmark.yaml") == "mini"


def test_check_params_validates_the_settings_files_the_params_name(tmp_path, capsys, monkeypatch):
    """A misspelt key in a study settings file stops check-params (and a run) in one line, before any compute."""
    from lib import ssl_protocols
    from lib.cli import main

    bad = tmp_path / "study.yaml"
    bad.write_text((REPO_ROOT / "params/tiny/ssl_protocols/study.yaml").read_text().replace("knn_k:", "knn_kk:"))
    check = ssl_protocols.SETTINGS["study_params"]
    monkeypatch.setitem(ssl_protocols.SETTINGS, "study_params", lambda path: check(str(bad)))
    assert main(["check-params", "--tier", "tiny", "--paper", "ssl_protocols"]) == 2
    err = capsys.readouterr().err
    assert "unknown parameter(s) ['knn_kk']" in err and err.count("\n") == 1
