#!/usr/bin/env python3
"""Runs one example program or benchmark and checks its exit status and the numbers it reports.

Usage: check_program.py [checks] -- PROGRAM [ARGS...]

The program's own command line says what was asked for (--steps, --p, --problem, ...; the
programs' documented defaults where an option is absent), and its --json file what it did.
Exit status: 0 when every check holds, 1 otherwise, 77 (ctest: SKIPPED) when --skip-if matched.

Checks (any combination):
  --exit-code N            the program must exit with N (default 0)
  --fails-with TEXT        the program must refuse its input: exit status 1 (the programs' error
                           exit, not a crash) and TEXT in what it printed (repeatable)
  --prints TEXT            TEXT must appear in what the program printed (repeatable)
  --omits TEXT             TEXT must not appear in what the program printed (repeatable)
  --skip-if TEXT           report SKIPPED (77) instead when the program fails printing TEXT
  --check KIND             convergence | heat | agglomerate | provenance | saved-system | euler: the
                           checks of the JSON that the program wrote (its own --json FILE);
                           provenance: a benchmark's "provenance" object
                           (perf/bench_provenance.hpp); saved-system: solve_saved_system's
                           solve of a heat --save-system file
  --rate-allowance A       convergence: observed rates may fall A below the theoretical ones
  --reference-l2-error-T V heat: the L2 error at T must round to V as written (e.g. 1.1861e-04:
                           within half a unit of its last digit)
  --compare FILE           heat / convergence / euler: the errors must equal those of FILE
                           (another run's JSON) to within --relative-tolerance (euler: also the
                           steps and the time reached; tolerance 0: equal, as written with 17
                           digits, i.e. bitwise)
  --relative-tolerance X   for --compare
"""
import json
import math
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from decimal import Decimal

SKIPPED = 77


class Checks:
    """Collects the verdict of every check; prints one line each."""

    def __init__(self):
        self.failed = 0

    def check(self, condition, what):
        print(f"check: {what}: {'ok' if condition else 'FAILED'}")
        if not condition:
            self.failed += 1
        return condition


def option(command, name, default):
    """The value of `--name VALUE` in the program's command line, or the documented default."""
    for i, arg in enumerate(command[:-1]):
        if arg == name:
            return command[i + 1]
    return default


def check_ksp_iterations(checks, command, iterations, name):
    """-ksp_type preonly (the examples' default where neither -ksp_type nor -pc_type is given:
    LU) makes one iteration; another KSP type (or a -pc_type alone: the library's GMRES) shows
    that the PETSc options reached the solver: more than one iteration, at most -ksp_max_it."""
    pc_given = option(command, "-pc_type", None) is not None
    ksp_type = option(command, "-ksp_type", "gmres" if pc_given else "preonly")
    if ksp_type == "preonly":
        checks.check(all(i == 1 for i in iterations), f"{name}: one iteration each (preonly)")
    elif option(command, "-pc_type", None) == "mg":
        # A problem within one level of the agglomeration hierarchy is solved directly (one
        # iteration); the others iterate.
        most = int(option(command, "-ksp_max_it", "10000"))
        checks.check(
            all(1 <= i <= most for i in iterations) and max(iterations) > 1,
            f"{name}: {ksp_type} + mg made {min(iterations)}..{max(iterations)} iterations, in "
            f"[1, {most}], more than one somewhere",
        )
    else:
        most = int(option(command, "-ksp_max_it", "10000"))
        checks.check(
            all(1 < i <= most for i in iterations),
            f"{name}: {ksp_type} made {min(iterations)}..{max(iterations)} iterations, in "
            f"(1, {most}]",
        )


def finite_positive(value):
    return isinstance(value, (int, float)) and math.isfinite(value) and value > 0


def slope(h, errors):
    """Least-squares slope of log(error) against log(h)."""
    x = [math.log(v) for v in h]
    y = [math.log(v) for v in errors]
    mean_x, mean_y = sum(x) / len(x), sum(y) / len(y)
    sxy = sum((a - mean_x) * (b - mean_y) for a, b in zip(x, y))
    sxx = sum((a - mean_x) ** 2 for a in x)
    return sxy / sxx


def relative_difference(a, b):
    return abs(a - b) / max(abs(a), abs(b))


# ---- convergence ----------------------------------------------------------------------------
# The a priori rates of the symmetric interior-penalty DG method for smooth solutions, which
# tests/dg/test_convergence.cpp asserts too: L2 p + 1 and DG norm p for the problems with
# diffusion; p + 1/2 for pure advection (upwind fluxes), in L2 and in its DG norm.
DIFFUSIVE = {"poisson", "advection_diffusion_reaction", "mixed_boundary"}


def theoretical_rates(problem, p):
    if problem in DIFFUSIVE:
        return p + 1.0, float(p)
    return p + 0.5, p + 0.5


def check_convergence(checks, command, data, arguments):
    all_problems = ["poisson", "advection_diffusion_reaction", "pure_advection", "mixed_boundary"]
    problems = option(command, "--problem", "all")
    problems = all_problems if problems == "all" else problems.split(",")
    degrees = [int(p) for p in option(command, "--p", "1,2,3,4").split(",")]
    # A --mesh file is one level unless --levels refines it (convergence's defaults).
    levels = int(option(command, "--levels", "1" if option(command, "--mesh", None) else "4"))
    runs = data["runs"]
    checks.check(
        sorted((r["problem"], r["p"], r["level"]) for r in runs)
        == sorted((q, p, level) for q in problems for p in degrees for level in range(levels)),
        f"one run per problem {problems}, p {degrees} and level 0..{levels - 1}",
    )
    for r in runs:
        name = f"{r['problem']} p = {r['p']} level {r['level']}"
        p, dim = r["p"], r["dim"]
        basis_size = math.comb(p + dim, dim)
        checks.check(
            r["elements"] >= 1 and r["dofs"] == r["elements"] * basis_size,
            f"{name}: {r['dofs']} DoFs = {r['elements']} elements x dim P_{p} in {dim}D "
            f"= {basis_size}",
        )
        checks.check(
            all(finite_positive(r[key]) for key in ("h", "l2_error", "dg_error")),
            f"{name}: h, L2 and DG errors finite and positive "
            f"({r['h']}, {r['l2_error']}, {r['dg_error']})",
        )
    check_ksp_iterations(checks, command, [r["ksp_its"] for r in runs], "every solve")
    if levels >= 2:
        allowance = arguments["rate_allowance"]
        if not checks.check(allowance is not None, "--rate-allowance given for a study"):
            return
        for problem in problems:
            for p in degrees:
                series = sorted(
                    (r for r in runs if r["problem"] == problem and r["p"] == p),
                    key=lambda r: r["level"],
                )
                # The mean element size (|Omega| / elements)^(1/dim) (docs/theory.md, Error norms:
                # the largest diameter jumps with the agglomeration); |Omega| drops out of a slope.
                h = [(1.0 / r["elements"]) ** (1.0 / r["dim"]) for r in series]
                l2_expected, dg_expected = theoretical_rates(problem, p)
                l2 = slope(h, [r["l2_error"] for r in series])
                dg = slope(h, [r["dg_error"] for r in series])
                checks.check(
                    l2 >= l2_expected - allowance,
                    f"{problem} p = {p}: L2 rate {l2:.3f} >= {l2_expected} - {allowance}",
                )
                checks.check(
                    dg >= dg_expected - allowance,
                    f"{problem} p = {p}: DG rate {dg:.3f} >= {dg_expected} - {allowance}",
                )
    if arguments["compare"]:
        with open(arguments["compare"]) as file:
            reference = {(r["problem"], r["p"], r["level"]): r for r in json.load(file)["runs"]}
        tolerance = arguments["relative_tolerance"]
        for r in runs:
            other = reference.get((r["problem"], r["p"], r["level"]))
            if not checks.check(other is not None, f"{arguments['compare']} has this run"):
                continue
            checks.check(
                other["elements"] == r["elements"] and other["dofs"] == r["dofs"],
                f"the same mesh as {arguments['compare']} ({r['elements']} elements)",
            )
            for key in ("l2_error", "dg_error"):
                checks.check(
                    relative_difference(r[key], other[key]) <= tolerance,
                    f"{key} {r[key]:.10e} equals {arguments['compare']}'s {other[key]:.10e} "
                    f"to {tolerance} relative",
                )


# ---- heat -----------------------------------------------------------------------------------
# ||u||_{L2(0,T; L2)} of heat's manufactured solutions on the unit square, T = 1: the error of
# u_h = 0, which a working method must beat. (The oscillating domain differs from the unit
# square only in a band as wide as its waves' amplitude, 0.005 by default: that moves these
# norms by far less than the margin between them and the errors of a method that converges.)
#   heat:                u = sin(pi x) sin(pi y)(1 - t):  1/4 * 1/3
#   advection_diffusion: u = e^-t sin(pi x) sin(pi y) + x t:
#                        (1 - e^-2)/2 * 1/4 + 2 (1 - 2/e)(2/pi^2) + 1/3 * 1/3
SOLUTION_NORM_T1 = {
    "heat": math.sqrt(1.0 / 12.0),
    "advection_diffusion": math.sqrt(
        (1 - math.exp(-2)) / 8 + 2 * (1 - 2 / math.e) * 2 / math.pi**2 + 1.0 / 9.0
    ),
}
# Whether a, w, c depend on t (heat.cpp): then every step assembles the matrix; otherwise only
# the first (all steps have the same length).
TIME_DEPENDENT = {"heat": False, "advection_diffusion": True}


def half_unit_in_last_digit(text):
    """0.5e-8 for "1.1861e-04": the rounding of a value written with these digits."""
    return 0.5 * 10.0 ** Decimal(text).as_tuple().exponent


def mpi_ranks(command):
    """N for a command run as `mpiexec -n N ...` (or -np, mpirun), else 1."""
    if command and os.path.basename(command[0]) in ("mpiexec", "mpirun"):
        for flag in ("-n", "-np", "--n", "--np"):
            value = option(command, flag, None)
            if value is not None:
                return int(value)
    return 1


def check_vtu_has_cells(checks, vtu, name):
    piece = ElementTree.parse(vtu).getroot().find("./UnstructuredGrid/Piece")
    checks.check(piece is not None and int(piece.get("NumberOfCells")) > 0, f"{name} has cells")


def check_pvd(checks, pvd_path, steps, ranks=1):
    """The series lists one file per step at the step's time: a .vtu with cells on one rank,
    under mpiexec -n R a .pvtu listing R pieces <stem>_<rank>.vtu that exist and have cells
    (tests/io/check_pvtu_against_vtu.py compares their contents with one rank's)."""
    if not checks.check(os.path.isfile(pvd_path), f"{pvd_path} written"):
        return
    datasets = ElementTree.parse(pvd_path).getroot().findall("./Collection/DataSet")
    checks.check(len(datasets) == len(steps), f"{pvd_path} lists {len(datasets)} time steps")
    folder = os.path.dirname(pvd_path)
    extension = ".pvtu" if ranks > 1 else ".vtu"
    for dataset, step in zip(datasets, steps):
        time = float(dataset.get("timestep"))
        name = dataset.get("file")
        vtu = os.path.join(folder, name)
        checks.check(
            math.isclose(time, step["t"], rel_tol=1e-14)
            and name.endswith(extension)
            and os.path.isfile(vtu),
            f"{pvd_path}: t = {time} -> {name} (a {extension}, exists)",
        )
        if not os.path.isfile(vtu):
            continue
        if extension == ".vtu":
            check_vtu_has_cells(checks, vtu, name)
            continue
        stem = os.path.splitext(name)[0]
        sources = [p.get("Source") for p in ElementTree.parse(vtu).getroot().iter("Piece")]
        expected = [f"{stem}_{rank}.vtu" for rank in range(ranks)]
        if checks.check(sources == expected, f"{name} lists the pieces {expected}"):
            for source in sources:
                piece_path = os.path.join(folder, source)
                if checks.check(os.path.isfile(piece_path), f"{source} exists"):
                    check_vtu_has_cells(checks, piece_path, source)


def check_heat(checks, command, data, arguments):
    problem = option(command, "--problem", "heat")
    steps = int(option(command, "--steps", "20"))
    final_time = float(option(command, "--T", "1"))
    p = int(option(command, "--p", "2"))
    space = option(command, "--space", "P")
    elements = int(option(command, "--elements", "1000"))
    backend = option(command, "--backend", "auto")
    n = data["steps"]
    checks.check(
        [s["n"] for s in n] == list(range(1, steps + 1)), f"{steps} steps, numbered 1..{steps}"
    )
    checks.check(
        all(math.isclose(s["t"], final_time * s["n"] / steps, rel_tol=1e-14) for s in n),
        f"t_n = n T / {steps}, the last at T = {final_time}",
    )
    check_ksp_iterations(checks, command, [s["ksp_its"] for s in n], "every step's KSP")
    assembled = [s["matrix_assembled"] for s in n]
    if TIME_DEPENDENT[problem]:
        checks.check(all(assembled), "the matrix assembled every step (a, w, c depend on t)")
    else:
        checks.check(
            assembled == [True] + [False] * (steps - 1),
            "the matrix assembled once and reused (a, w, c constant in t, equal steps)",
        )
    size = (p + 1) * (p + 2) * (p + 3) // 6 if space == "P" else (p + 1) ** 2 * (p + 2) // 2
    checks.check(
        1 <= data["elements"] <= elements and data["dofs"] == data["elements"] * size,
        f"{data['dofs']} DoFs per slab = {data['elements']} polygons (<= {elements}) x "
        f"dim {space}_{p} = {size}",
    )
    if backend != "auto":
        checks.check(data["backend"] == backend.upper(), f"assembly on the {backend.upper()}")
    else:
        checks.check(data["backend"] in ("CPU", "GPU"), f"assembly on the {data['backend']}")
    for key in ("l2_error_T", "l2l2_error"):
        checks.check(finite_positive(data[key]), f"{key} = {data[key]} finite and positive")
    if math.isclose(final_time, 1.0):
        norm = SOLUTION_NORM_T1[problem]
        checks.check(
            data["l2l2_error"] < norm,
            f"L2(0,T; L2) error {data['l2l2_error']:.4e} below ||u||_L2(0,T;L2) = {norm:.4f} "
            f"(the error of u_h = 0)",
        )
    reference = arguments["reference_l2_error_T"]
    if reference:
        allowed = half_unit_in_last_digit(reference)
        checks.check(
            abs(data["l2_error_T"] - float(reference)) <= allowed,
            f"L2 error at T {data['l2_error_T']:.10e} rounds to the documented {reference} "
            f"(within {allowed:.1e})",
        )
    if arguments["compare"]:
        with open(arguments["compare"]) as file:
            other = json.load(file)
        tolerance = arguments["relative_tolerance"]
        checks.check(
            other["dofs"] == data["dofs"] and len(other["steps"]) == len(n),
            f"the same slabs and steps as {arguments['compare']} ({other['backend']})",
        )
        for key in ("l2_error_T", "l2l2_error"):
            checks.check(
                relative_difference(data[key], other[key]) <= tolerance,
                f"{key} {data[key]:.10e} equals {arguments['compare']}'s {other[key]:.10e} "
                f"to {tolerance} relative",
            )
    vtk = option(command, "--vtk", None)
    if vtk:
        check_pvd(checks, os.path.join(vtk, "heat.pvd"), n, mpi_ranks(command))


# ---- agglomerate ----------------------------------------------------------------------------
def check_agglomerate(checks, command, data, arguments):
    asked = int(option(command, "--elements", "1000"))
    dimension = data["dimension"]
    quality = data["quality"]
    elements = data["elements"]
    checks.check(
        data["requested"] == min(asked, data["fine_cells"]),
        f"{data['requested']} parts requested (--elements {asked}, {data['fine_cells']} cells)",
    )
    if data["partition"] in ("kway", "recursive"):
        # Every non-empty part is one element, plus each split-off piece kept on its own.
        checks.check(
            elements == data["requested"] - data["empty_parts"] + data["kept_pieces"],
            f"{elements} elements = requested - empty parts + kept pieces",
        )
    checks.check(1 <= elements <= data["fine_cells"], f"1 <= {elements} elements <= fine cells")
    # The elements partition the fine mesh: their measures add up to its measure, their cells
    # to its cells, and their quadrature simplices to the mesh's.
    checks.check(
        math.isclose(data["element_measure_sum"], data["fine_measure"], rel_tol=1e-12),
        f"element measures sum to the fine mesh's {data['fine_measure']}",
    )
    checks.check(
        math.isclose(quality["fine_cells"]["mean"] * elements, data["fine_cells"], rel_tol=1e-12)
        and quality["fine_cells"]["min"] >= 1,
        "every fine cell in one element, every element with a cell",
    )
    checks.check(
        math.isclose(quality["simplices"]["mean"] * elements, data["simplices"], rel_tol=1e-12),
        f"{data['simplices']} quadrature simplices, the elements' sum",
    )
    # Each interface is a neighbour of its two elements.
    checks.check(
        math.isclose(quality["neighbours"]["mean"] * elements, 2 * data["interfaces"],
                     rel_tol=1e-12),
        f"{data['interfaces']} interfaces, each counted by its two elements",
    )
    # The box contains the element: |B| >= |K| (up to rounding in the two measures).
    checks.check(
        quality["box_coverage"]["min"] >= 1 - 1e-12,
        f"box coverage |B_K|/|K| >= 1 (min {quality['box_coverage']['min']})",
    )
    # A polygon has at least 3 faces, a polyhedron at least 4; the isoperimetric inequality
    # bounds the roundness by 1 (the disc's / ball's).
    checks.check(
        quality["faces"]["min"] >= dimension + 1,
        f"at least {dimension + 1} faces per element (min {quality['faces']['min']})",
    )
    checks.check(
        0 < quality["roundness"]["min"] and quality["roundness"]["max"] <= 1 + 1e-12,
        f"roundness in (0, 1] ({quality['roundness']['min']} .. {quality['roundness']['max']})",
    )
    output = data["output"]
    if dimension == 2 and option(command, "--output", "agglomerated.vtu") != "":
        if checks.check(output is not None and os.path.isfile(output), f"{output} written"):
            piece = ElementTree.parse(output).getroot().find("./UnstructuredGrid/Piece")
            checks.check(
                piece is not None and int(piece.get("NumberOfCells")) == elements,
                f"{output} has one cell per element ({elements})",
            )
    else:
        checks.check(output is None, "nothing written")


# ---- provenance ------------------------------------------------------------------------------
GPU_BENCHMARKS = (
    "bench_spmv", "bench_ksp", "bench_slab_march", "bench_explicit", "explicit_accuracy"
)


def check_provenance(checks, command, data, arguments):
    """A benchmark's JSON opens with the provenance every benchmark writes the same way."""
    provenance = data.get("provenance")
    if not checks.check(isinstance(provenance, dict), "a provenance object"):
        return
    checks.check(next(iter(data)) == "provenance", "provenance is the JSON's first member")
    for key in ("commit", "commit_source", "build_type", "command", "host", "cpu"):
        value = provenance.get(key)
        checks.check(isinstance(value, str) and value != "", f"provenance.{key}: {value!r}")
    date = provenance.get("date_utc", "")
    checks.check(
        re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", date) is not None,
        f"provenance.date_utc {date!r} is ISO 8601 in UTC",
    )
    checks.check(provenance.get("command", "").split(" ")[0] == command[0],
                 "provenance.command starts with the program")
    given = os.environ.get("POLYDG_COMMIT")
    if given:
        checks.check(
            provenance.get("commit") == given
            and provenance.get("commit_source") == "POLYDG_COMMIT at run time",
            f"POLYDG_COMMIT at run time ({given}) wins over the build's commit",
        )
    gpu = os.path.basename(command[0]) in GPU_BENCHMARKS or "--gpu" in command
    device = provenance.get("device", "missing")
    if gpu:
        ok = isinstance(device, dict)
        for key in ("name", "compute_capability", "driver_version", "runtime_version"):
            ok = ok and device.get(key) not in (None, "", 0)
        checks.check(ok, f"provenance.device names the GPU, its compute capability, driver and "
                         f"runtime: {device!r}")
    else:
        checks.check(device is None, "provenance.device is null on the CPU")


# ---- euler ----------------------------------------------------------------------------------
def check_euler(checks, command, data, arguments):
    """euler's JSON: the case, degree and level asked for; the mesh's triangle count
    (rotating_hill: 2 (8 * 2^L)^2, supersonic_vortex: 180 * 4^L, double_mach: 8 (12 * 2^L)^2);
    DoFs = variables (1 or 4) x elements x (p + 1)(p + 2) / 2; at least one step; a finite
    positive error below the exact solution's L2 norm scale (the scalar's, < 1; the vortex's
    density, ~1.2 times sqrt(area 0.72)), or for double_mach (no exact solution) a positive
    smallest density and pressure, the density at most the pre-shock 1.4 (the smallest value of
    the data); and finite positive times. Then the march (check_euler_march), --compare
    (check_euler_compare) and the --vtk series (check_euler_series)."""
    case = option(command, "--case", "rotating_hill")
    double_mach = case == "double_mach"
    p = int(option(command, "--p", "1" if double_mach else "2"))
    level = int(option(command, "--level", "0"))
    checks.check(data.get("case") == case and data.get("p") == p and data.get("level") == level,
                 f"case {data.get('case')}, p = {data.get('p')}, level {data.get('level')}")
    elements = {"rotating_hill": 2 * (8 * 2**level) ** 2, "supersonic_vortex": 180 * 4**level,
                "double_mach": 8 * (12 * 2**level) ** 2}[case]
    checks.check(data.get("elements") == elements, f"{data.get('elements')} triangles: {elements}")
    variables = 1 if case == "rotating_hill" else 4
    dofs = variables * elements * (p + 1) * (p + 2) // 2
    checks.check(data.get("dofs") == dofs, f"{data.get('dofs')} DoFs: {dofs}")
    checks.check(isinstance(data.get("steps"), int) and data["steps"] >= 1,
                 f"{data.get('steps')} steps")
    if double_mach:
        density, pressure = data.get("min_density", math.nan), data.get("min_pressure", math.nan)
        checks.check(finite_positive(density) and density <= 1.4 + 1e-12,
                     f"min_density = {density} in (0, 1.4]")
        checks.check(finite_positive(pressure), f"min_pressure = {pressure} > 0")
    else:
        error = data.get("l2_error", math.nan)
        checks.check(finite_positive(error) and error < 1, f"l2_error = {error} in (0, 1)")
    for key in ("seconds", "seconds_per_element_step"):
        checks.check(finite_positive(data.get(key, math.nan)), f"{key} = {data.get(key)}")
    check_euler_march(checks, command, data, case)
    if arguments["compare"]:
        check_euler_compare(checks, data, arguments, double_mach)
    vtk = option(command, "--vtk", None)
    if vtk:
        check_euler_series(checks, command, data, case, p, vtk)


# The end times of the time-dependent cases; supersonic_vortex marches to a steady state, at
# most to t = 20.
EULER_END_TIME = {"rotating_hill": 1.0, "double_mach": 0.2, "supersonic_vortex": 20.0}


def check_euler_march(checks, command, data, case):
    """This run began at first_step (0 unless --restart) and took at most --stop-after-steps
    steps; a run that was not stopped reached the case's end time (rotating_hill, double_mach:
    exactly, the last step lands on it), one that was stopped took exactly that many."""
    first, steps, time = data.get("first_step"), data.get("steps"), data.get("time", math.nan)
    end = EULER_END_TIME[case]
    if not checks.check(isinstance(first, int) and isinstance(steps, int) and 0 <= first <= steps,
                        f"this run's steps {first}..{steps}"):
        return
    checks.check(option(command, "--restart", None) is not None or first == 0,
                 f"first_step {first} (0 unless --restart)")
    checks.check(math.isfinite(time) and 0 <= time <= end, f"time = {time} in [0, {end}]")
    stop = int(option(command, "--stop-after-steps", "0"))
    if stop > 0:
        checks.check(steps - first <= stop, f"{steps - first} steps <= --stop-after-steps {stop}")
    if case != "supersonic_vortex":
        stopped = f", or stopped after --stop-after-steps {stop}" if stop > 0 else ""
        checks.check(time == end or steps - first == stop,
                     f"t = {time}: the end time {end}{stopped}")


def check_euler_compare(checks, data, arguments, double_mach):
    """The same steps, time and results as another run's JSON; with --relative-tolerance 0 the
    same values as written with 17 significant digits, i.e. the same doubles."""
    with open(arguments["compare"]) as file:
        other = json.load(file)
    tolerance = arguments["relative_tolerance"]
    for key in ("elements", "dofs", "steps"):
        checks.check(data.get(key) == other.get(key),
                     f"{key} {data.get(key)} equals {arguments['compare']}'s {other.get(key)}")
    keys = ("time", "min_density", "min_pressure") if double_mach else ("time", "l2_error")
    for key in keys:
        a, b = data.get(key, math.nan), other.get(key, math.nan)
        if tolerance == 0:
            checks.check(a == b, f"{key} {a!r} equals {arguments['compare']}'s {b!r} exactly")
        else:
            checks.check(relative_difference(a, b) <= tolerance,
                         f"{key} {a:.10e} equals {arguments['compare']}'s {b:.10e} to "
                         f"{tolerance} relative")


EULER_FIELDS = {"rotating_hill": ["u"]}
GAS_FIELDS = ["density", "momentum_x", "momentum_y", "energy", "pressure"]


def check_euler_series(checks, command, data, case, p, vtk):
    """--vtk DIR: DIR/<case>.pvd lists DIR/<case>_NNNN.vtu for the first step of the run, every
    --vtk-every steps after it and the last step (once), at increasing times from the first
    state's to the time reached; each file exists and holds elements x (r+1)(r+2)/2 points
    (r = max(1, p) sub-triangles per edge, no points shared), r^2 cells per element, and the
    case's fields with finite values."""
    pvd_path = os.path.join(vtk, f"{case}.pvd")
    if not checks.check(os.path.isfile(pvd_path), f"{pvd_path} written"):
        return
    every = int(option(command, "--vtk-every", "0"))
    first, last = data["first_step"], data["steps"]
    written = [first] + [k for k in range(first + 1, last + 1) if every and k % every == 0]
    if written[-1] != last:
        written.append(last)
    datasets = ElementTree.parse(pvd_path).getroot().findall("./Collection/DataSet")
    files = [d.get("file") for d in datasets]
    checks.check(files == [f"{case}_{k:04d}.vtu" for k in written],
                 f"{pvd_path} lists steps {written} (--vtk-every {every})")
    times = [float(d.get("timestep")) for d in datasets]
    checks.check(all(a < b for a, b in zip(times, times[1:])) and times[-1] == data["time"],
                 f"times increasing to the time reached {data['time']}")
    r = max(1, p)
    fields = EULER_FIELDS.get(case, GAS_FIELDS)
    for name in files:
        vtu = os.path.join(vtk, name)
        if not checks.check(os.path.isfile(vtu), f"{vtu} exists"):
            continue
        piece = ElementTree.parse(vtu).getroot().find("./UnstructuredGrid/Piece")
        checks.check(
            int(piece.get("NumberOfPoints")) == data["elements"] * (r + 1) * (r + 2) // 2
            and int(piece.get("NumberOfCells")) == data["elements"] * r * r,
            f"{name}: {piece.get('NumberOfPoints')} points, {piece.get('NumberOfCells')} cells "
            f"({data['elements']} triangles, r = {r})",
        )
        arrays = {a.get("Name"): a.text for a in piece.findall("./PointData/DataArray")}
        checks.check(list(arrays) == fields, f"{name}: point data {list(arrays)}")
        checks.check(
            all(math.isfinite(float(v)) for text in arrays.values() for v in text.split()),
            f"{name}: finite values",
        )


# ---- saved system ----------------------------------------------------------------------------
def check_saved_system(checks, command, data, arguments):
    """solve_saved_system solved what heat --save-system wrote: its rows are the slab's DoFs
    (--compare: heat's JSON), the KSP converged, and with a direct solve (-pc_type lu) the true
    residual is at rounding level: |b - Ax| / |b| <= 1e-10, a backward-stable LU's n·ε·growth
    with room for the growth, for the few thousand rows of a test."""
    reason = data.get("reason", "")
    checks.check(reason.startswith("CONVERGED"), f"the KSP converged: {reason}")
    if "lu" in command:
        residual = data.get("relative_residual", math.inf)
        checks.check(residual <= 1e-10, f"|b - Ax| / |b| = {residual:.2e} <= 1e-10 (direct solve)")
    if arguments["compare"]:
        with open(arguments["compare"]) as file:
            dofs = json.load(file).get("dofs")
        checks.check(data.get("rows") == dofs, f"{data.get('rows')} rows: heat's {dofs} DoFs")


CHECKERS = {
    "convergence": check_convergence,
    "heat": check_heat,
    "agglomerate": check_agglomerate,
    "provenance": check_provenance,
    "saved-system": check_saved_system,
    "euler": check_euler,
}


def parse(argv):
    if "--" not in argv:
        sys.exit("usage: check_program.py [checks] -- PROGRAM [ARGS...]")
    split = argv.index("--")
    own, command = argv[:split], argv[split + 1 :]
    arguments = {
        "exit_code": 0,
        "fails_with": [],
        "prints": [],
        "omits": [],
        "skip_if": None,
        "check": None,
        "rate_allowance": None,
        "reference_l2_error_T": None,
        "compare": None,
        "relative_tolerance": None,
    }
    repeated = {"fails_with", "prints", "omits"}
    i = 0
    while i < len(own):
        key = own[i].lstrip("-").replace("-", "_")
        if key not in arguments or i + 1 >= len(own):
            sys.exit(f"check_program.py: unknown option or missing value: {own[i]}")
        value = own[i + 1]
        if key in repeated:
            arguments[key].append(value)
        elif key in ("exit_code",):
            arguments[key] = int(value)
        elif key in ("rate_allowance", "relative_tolerance"):
            arguments[key] = float(value)
        else:
            arguments[key] = value
        i += 2
    if arguments["check"] and arguments["check"] not in CHECKERS:
        sys.exit(f"check_program.py: --check {arguments['check']}: use {', '.join(CHECKERS)}")
    if arguments["compare"] and arguments["relative_tolerance"] is None:
        sys.exit("check_program.py: --compare needs --relative-tolerance")
    return arguments, command


def main(argv):
    arguments, command = parse(argv)
    json_path = option(command, "--json", None) if arguments["check"] else None
    if arguments["check"] and not json_path:
        sys.exit(f"check_program.py: --check {arguments['check']} needs the program's --json FILE")
    if json_path and os.path.exists(json_path):
        os.remove(json_path)  # a stale file from an earlier run proves nothing
    vtk = option(command, "--vtk", None) if arguments["check"] in ("euler", "heat") else None
    if vtk and os.path.isdir(vtk):  # likewise stale series files (only the program's own names)
        euler = arguments["check"] == "euler"
        case = option(command, "--case", "rotating_hill") if euler else "heat"
        for name in os.listdir(vtk):
            if name == f"{case}.pvd" or re.fullmatch(rf"{case}_\d+(_\d+)?\.p?vtu", name):
                os.remove(os.path.join(vtk, name))
    print("running:", " ".join(command), flush=True)
    run = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    sys.stdout.write(run.stdout)
    sys.stdout.write(run.stderr)
    printed = run.stdout + run.stderr
    if arguments["skip_if"] and run.returncode != 0 and arguments["skip_if"] in printed:
        print(f"SKIPPED: the program printed \"{arguments['skip_if']}\"")
        return SKIPPED

    checks = Checks()
    if arguments["fails_with"]:
        checks.check(run.returncode == 1, f"exit status {run.returncode} is 1 (refused, no crash)")
        for text in arguments["fails_with"]:
            checks.check(text in run.stderr, f"the error names the problem: \"{text}\"")
    else:
        checks.check(
            run.returncode == arguments["exit_code"],
            f"exit status {run.returncode} is {arguments['exit_code']}",
        )
    for text in arguments["prints"]:
        checks.check(text in printed, f"printed \"{text}\"")
    for text in arguments["omits"]:
        checks.check(text not in printed, f"did not print \"{text}\"")
    if json_path and checks.check(os.path.isfile(json_path), f"{json_path} written"):
        with open(json_path) as file:
            data = json.load(file)
        CHECKERS[arguments["check"]](checks, command, data, arguments)
    print(f"{checks.failed} check(s) failed" if checks.failed else "all checks passed")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
