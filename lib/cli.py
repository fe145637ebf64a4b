"""`python -m lib <command>`: run notebooks, audit a paper, assess its claims, check data and params."""

from __future__ import annotations

import argparse
import functools
import logging
import sys
import textwrap
from collections.abc import Callable, Sequence
from difflib import get_close_matches
from pathlib import Path

from . import PAPERS, TIERS
from .scale import add_executor_arguments


def _audit(args: argparse.Namespace) -> int:
    from .audit import audit_paper

    frame = audit_paper(args.paper)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        frame.to_csv(args.out, index=False)
    counts = frame["status"].value_counts()
    print(f"{args.paper}: {len(frame)} audit rows: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    shown = frame[frame["status"] == "mismatch"]
    for row in shown.itertuples():
        print(textwrap.fill(f"mismatch {row.artefact}: {row.quantity}: printed {row.printed}, recomputed "
                            f"{row.recomputed:.4g} (delta {row.delta:+.3g}, tolerance {row.tolerance:.3g}). {row.note}",
                            width=100, subsequent_indent="    "))
    print(f"full table: {args.out}" if args.out else "write every row (with its note) with --out FILE.csv")
    return 0


def _claims(args: argparse.Namespace) -> int:
    from .claims import ClaimsFileError, format_ledger, our_run, paper_ledger, verdict_counts
    from .manifest import notebook_params

    try:
        ours = our_run(args.paper, notebook_params(args.paper, "claims", args.tier))  # as the claims notebook reads it
        frame = paper_ledger(args.paper, ours)
    except ClaimsFileError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        frame.to_csv(args.out, index=False)
    print(f"{args.paper}: {len(frame)} claims.\n  on the paper's numbers: {verdict_counts(frame)}\n"
          f"  on our run ({args.tier} tier): {verdict_counts(frame, 'ours_verdict')}\n")
    print(format_ledger(frame))
    return 0


def _check_data(args: argparse.Namespace) -> int:
    from .data.check import check_all
    from .paths import data_root

    frame = check_all(args.paper, args.data_root)
    print(f"data root: {data_root(args.data_root)}")
    for row in frame.itertuples(index=False):
        counts = f" ({row.images} images, {row.classes} classes)" if row.status != "missing" else ""
        print(f"{row.status:<10} {row.name:<18} {row.path}{counts}")
        if row.status != "present":
            print(f"{'':<11}{row.detail}\n{'':<11}licence: {row.licence}")
    print("\n" + ", ".join(f"{k}: {v}" for k, v in frame["status"].value_counts().sort_index().items()))
    return 0


def _run(args: argparse.Namespace) -> int:
    from .runner import make_reference, run

    for path in run(args.tier, args.paper, args.artefact, args.cell_timeout, args.executed_dir, args.workers):
        if args.as_reference:
            make_reference(path)
        print(f"executed {path}")
    return 0


def _refresh_prose(args: argparse.Namespace) -> int:
    from .manifest import read
    from .paths import CPU_REFERENCES_DIR, REFERENCES_DIR
    from .runner import CodeChangedError, refresh_prose

    notebooks = {(e.paper, e.artefact): e.notebook_path for e in read()}
    stale = []
    for reference in sorted(REFERENCES_DIR.glob("*/*.ipynb")) + sorted(CPU_REFERENCES_DIR.glob("*/*/*.ipynb")):
        try:
            if refresh_prose(reference, notebooks[(reference.parent.name, reference.stem)]):
                print(f"refreshed {reference}")
        except CodeChangedError as error:
            stale.append(str(error))
    if stale:
        print("\n".join(stale), file=sys.stderr)
    return 1 if stale else 0


def _check_params(args: argparse.Namespace) -> int:
    from .manifest import select
    from .runner import validated_params

    for entry in validated_params(select(args.tier, args.paper, args.artefact), args.tier):
        print(f"ok {entry.params_path(args.tier)}")
    return 0


def experiment_benchmarks(path: str, name: str, results: str) -> list:
    """The benchmarks of one ImageNet-RIB experiment: the grids `--executor` sends as jobs."""
    from .imagenet_rib.benchmark import Benchmark
    from .imagenet_rib.experiments import load_experiments
    from .params import ParamsError
    from .store import RunContext

    base, experiments = load_experiments(path)
    if name not in experiments:
        raise ParamsError(f"{path}: no experiment {name!r}; experiments: {sorted(experiments)}")
    return [Benchmark(settings, results, RunContext(params_file=str(path), device=settings.device))
            for _, settings in experiments[name].variants(base, str(path))]


def _experiment(args: argparse.Namespace) -> int:
    from .imagenet_rib.experiments import load_experiments, run_experiment

    path = f"params/{args.tier}/imagenet_rib/experiments.yaml"
    _, experiments = load_experiments(path)
    if args.check:
        for experiment in experiments.values():
            print(f"ok {experiment.name}: {experiment.description}")
        return 0
    if args.name is None:
        print(f"give --name (one of {sorted(experiments)}) or --check", file=sys.stderr)
        return 2
    if args.executor:  # the missing runs as jobs; the accuracies below are then read back from the store
        from .scale import JobsFailedError, executor_settings, run_on_executor

        try:
            computed = run_on_executor(functools.partial(experiment_benchmarks, path, args.name, args.results),
                                       executor_settings(args))
        except JobsFailedError as error:
            print(f"error: {error}", file=sys.stderr)
            return 1
        print(f"{len(computed)} runs computed by {args.executor} jobs")
    acc = run_experiment(path, args.name, args.results)
    print(acc.to_string(max_rows=40))
    return 0


def _check_weights(args: argparse.Namespace) -> int:
    from .models.registry import registry
    from .models.weight_files import hubs_reachable, missing_weights

    rows = [s for s in registry().values() if args.paper in (None, s.paper)]
    missing = 0
    for s in rows:
        line = missing_weights(s, args.weights_root)
        missing += line is not None
        print(f"present  {s.key}" if line is None else f"missing  {line}")
    print(f"\npresent: {len(rows) - missing}, missing: {missing}")
    if missing:
        print("the hubs are reachable: a study downloads missing hub weights at their first run (checkpoint files it "
              "does not)" if hubs_reachable() else "no hub is reachable from here: a study stops before any compute "
              "until every model it runs is present")
    return 0


def _verify_weights(args: argparse.Namespace) -> int:
    from .models.registry import UnsafeCheckpointError, WeightsMissingError, record_sha256, registry, spec

    keys = args.key or [s.key for s in registry().values() if s.checkpoint_file]
    refused = 0
    for key in keys:
        recorded = spec(key).sha256
        try:
            digest = record_sha256(key, args.weights_root)
        except WeightsMissingError:
            print(f"missing  {key}")
            continue
        except UnsafeCheckpointError as error:
            refused += 1
            print(f"refused  {key}: {error}")
            continue
        print(f"{'ok' if recorded else 'recorded':<8} {key} {digest}")
    return 1 if refused else 0


class _Parser(argparse.ArgumentParser):
    """argparse's parser whose usage errors are one line naming the fix, without the usage block."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (--help: every option)\n")


def _one_of(names: Sequence[str], what: str) -> Callable[[str], str]:
    """An argument type accepting only `names`; anything else is answered with a near match and the valid names."""
    def parse(value: str) -> str:
        if value in names:
            return value
        near = get_close_matches(value, names, n=1)
        hint = f"did you mean {near[0]!r}? " if near else ""
        raise argparse.ArgumentTypeError(f"unknown {what} {value!r}; {hint}choose from {', '.join(names)}")
    return parse


def main(argv: list[str] | None = None) -> int:
    parser = _Parser(prog="python -m lib", description=__doc__)
    paper, tier = _one_of(PAPERS, "paper"), _one_of(TIERS, "tier")
    papers, tiers = "{" + ",".join(PAPERS) + "}", "{" + ",".join(TIERS) + "}"
    sub = parser.add_subparsers(dest="command", required=True)

    audit = sub.add_parser("audit", help="re-derive every number a paper derives")
    audit.add_argument("--paper", required=True, type=paper, metavar=papers)
    audit.add_argument("--out", help="also write the rows to this CSV file")
    audit.set_defaults(func=_audit)

    claims = sub.add_parser("claims", help="judge each claim of a paper on its printed numbers and on our run")
    claims.add_argument("--paper", required=True, type=paper, metavar=papers)
    claims.add_argument("--out", help="also write the ledger to this CSV file")
    claims.add_argument("--tier", type=tier, metavar=tiers, default="mini",
                        help="the tier of our run judged beside the paper (read back from its results store, "
                             "or computed there if absent; default mini)")
    claims.set_defaults(func=_claims)

    data = sub.add_parser("check-data", help="list registered datasets: present, missing or malformed")
    data.add_argument("--paper", type=paper, metavar=papers)
    data.add_argument("--data-root", help="default: $ROBUSTNESS_DATA_ROOT or <repo>/data")
    data.set_defaults(func=_check_data)

    experiment = sub.add_parser("experiment", help="run (or --check) one experiment of ImageNet-RIB at a tier")
    experiment.add_argument("--tier", required=True, type=tier, metavar=tiers)
    experiment.add_argument("--name", help="an experiment of params/<tier>/imagenet_rib/experiments.yaml")
    experiment.add_argument("--check", action="store_true", help="validate every experiment offline, run nothing")
    experiment.add_argument("--results", default="results", help="the results store's root")
    add_executor_arguments(experiment)
    experiment.set_defaults(func=_experiment)

    weights = sub.add_parser("check-weights", help="list registered models: weights on this machine or missing (no download)")
    weights.add_argument("--paper", type=paper, metavar=papers)
    weights.add_argument("--weights-root", help="default: $ROBUSTNESS_WEIGHTS or <repo>/weights")
    weights.set_defaults(func=_check_weights)

    verify = sub.add_parser("verify-weights", help="read checkpoint files safely; record (or check) their sha256 in models.csv")
    verify.add_argument("--key", action="append", help="a models.csv key (repeatable; default: every checkpoint-file row)")
    verify.add_argument("--weights-root", help="default: $ROBUSTNESS_WEIGHTS or <repo>/weights")
    verify.set_defaults(func=_verify_weights)

    prose = sub.add_parser("refresh-prose", help="give nbval's references (tests/notebooks/, tests/notebooks_by_cpu/) "
                                                  "their notebooks' markdown where only markdown changed")
    prose.set_defaults(func=_refresh_prose)

    for name, func, help_text in (
        ("run", _run, "execute notebooks with papermill at a tier"),
        ("check-params", _check_params, "validate params files against their notebooks, run nothing"),
    ):
        command = sub.add_parser(name, help=help_text)
        command.add_argument("--tier", required=True, type=tier, metavar=tiers)
        command.add_argument("--paper", type=paper, metavar=papers)
        command.add_argument("--artefact", help="e.g. figure02 (with --paper)")
        if name == "run":
            command.add_argument("--cell-timeout", type=int, default=3600, help="seconds per notebook cell")
            command.add_argument("--executed-dir", help="where executed notebooks go (default build/<tier>/notebooks)")
            command.add_argument("--workers", type=int, help="notebooks run at once (default: one per core)")
            command.add_argument("--as-reference", action="store_true",
                                 help="write the executed notebooks as nbval's references: no image payloads, no timings")
        command.set_defaults(func=func)

    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    from .data.registry import DatasetMissingError
    from .manifest import SelectionError
    from .models.registry import UnsafeCheckpointError, WeightsMissingError
    from .params import ParamsError

    try:
        return args.func(args)
    except (ParamsError, DatasetMissingError, WeightsMissingError, UnsafeCheckpointError, SelectionError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
