# The two commands of the README:  `make figures`  and  `make test`.
# Both create (or reuse) the virtual environment .venv and install the project into it.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
TIER ?= mini
PAPER ?=
ARTEFACT ?=
SELECT := $(if $(PAPER),--paper $(PAPER)) $(if $(ARTEFACT),--artefact $(ARTEFACT))
# The kernel the runner, nbval and JupyterLab use (lib.runner.KERNEL_NAME), installed into the environment.
KERNEL := robustness-companion
LAB_ARGS ?=

.PHONY: setup lock lab figures book notebooks test test-notebooks test-notebooks-cpu test-notebooks-prose sync audit check-data gpu-wheels clean

setup: $(VENV)/.installed $(VENV)/.kernel

$(VENV)/.installed: pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -c constraints.txt -e '.[test]'
	touch $@

# The notebook kernel, started with the pinned instruction set of lib/isa.py in its environment.
$(VENV)/.kernel: $(VENV)/.installed lib/isa.py
	$(PY) -m ipykernel install --sys-prefix --name $(KERNEL) --display-name "Python (robustness companion)" \
		$$($(PY) -c 'import lib.isa; print(lib.isa.kernel_spec_arguments())') >/dev/null
	touch $@

## Re-pin constraints.txt to the versions the current environment has (after changing a dependency; then test).
lock: setup
	{ sed -n '/^#/p' constraints.txt; $(PY) -m pip freeze --exclude-editable; } > constraints.txt.new
	mv constraints.txt.new constraints.txt

## JupyterLab on the notebooks, with the project's kernel (LAB_ARGS=… passes options, e.g. --no-browser).
lab: setup
	$(VENV)/bin/jupyter lab --ServerApp.root_dir=notebooks $(if $(filter 0,$(shell id -u)),--allow-root) $(LAB_ARGS)

## Regenerate figures (default: the mini tier on embedded data). PAPER=… ARTEFACT=… TIER=… select.
figures: setup
	$(PY) -m lib run --tier $(TIER) $(SELECT)

## The rendered book of every artefact, build/book/html/index.html, from the notebooks `make figures`
## executed at TIER (Jupyter Book; nothing is re-executed and nothing is fetched from the network).
book: setup
	$(PY) -m lib.book --tier $(TIER)

## All tests, spread over the cores: unit, loader, registry and manifest tests, and nbval executing
## each tiny-tier notebook once and comparing it with its executed reference in tests/notebooks/.
test: setup
	rm -rf build/tiny
	$(PY) -m pytest tests --nbval --nbval-sanitize-with tests/nbval_sanitize.cfg -n auto --dist loadfile -p no:cacheprovider

## Re-execute the tiny-tier notebooks into tests/notebooks/ (the references nbval compares with;
## no image payloads or timings: lib.runner.make_reference): run after changing a notebook or
## anything that moves its tiny outputs.
test-notebooks: setup
	rm -rf build/tiny tests/notebooks
	$(PY) -m lib run --tier tiny --executed-dir tests/notebooks --as-reference

## Re-execute into tests/notebooks_by_cpu/<this CPU's class>/ the tiny notebooks whose outputs differ on this
## machine's CPU class (lib.isa.cpu_class) from tests/notebooks/: PAPER=… ARTEFACT=… adds one, and without them
## every notebook already there is remade (tests/notebooks_by_cpu/README.md says when).
test-notebooks-cpu: setup
	$(if $(ARTEFACT),$(if $(PAPER),,$(error ARTEFACT=$(ARTEFACT) names a notebook of one paper: give PAPER=… too)))
	rm -rf build/tiny
	class=$$($(PY) -c 'import lib.isa; print(lib.isa.cpu_class())'); \
	for notebook in $(if $(ARTEFACT),$(PAPER)/$(ARTEFACT),$$(cd tests/notebooks_by_cpu/$$class && ls */*.ipynb | sed 's/.ipynb$$//')); do \
		$(PY) -m lib run --tier tiny --paper $${notebook%/*} --artefact $${notebook#*/} \
			--executed-dir tests/notebooks_by_cpu/$$class --as-reference || exit 1; \
	done

## Give every nbval reference (shared and per CPU class) its notebook's current markdown, where only markdown
## changed: no output can have moved, so nothing is re-executed (tests/notebooks_by_cpu/README.md).
test-notebooks-prose: setup
	$(PY) -m lib refresh-prose

## Re-pair every notebook's .ipynb from its .py source (run after editing a notebook).
sync: setup
	$(VENV)/bin/jupytext --to ipynb --update notebooks/*/*.py

audit: setup
	$(PY) -m lib audit --paper $(PAPER)

check-data: setup
	$(PY) -m lib check-data $(SELECT)

## The wheels the lent GPU machine lacks (its Python 3.12 has torch, timm, pandas, scikit-image, OpenCV, numba),
## into .whl/ for benchmarks/gpu_checks.sh: open_clip and its text needs, ImageNet-C's corruptions, miniball.
GPU_WHEELS := open_clip_torch==3.3.0 ftfy==6.3.1 wcwidth==0.9.4 imagecorruptions-imaug==1.1.5
gpu-wheels: setup
	$(PY) -m pip download --quiet --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
		--platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
		-d .whl $(GPU_WHEELS)
	$(PY) -m pip wheel --quiet --no-deps -w .whl miniball==1.2.0  # pure Python, published as a source archive only

clean:
	rm -rf build
