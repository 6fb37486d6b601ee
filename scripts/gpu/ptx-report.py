#!/usr/bin/env python3
"""Per-kernel PTX facts of one CUDA source, without a GPU: for each kernel whose name matches
FILTER, its local memory (the depot's bytes, ld/st.local counts: an array indexed at run time, or
spilled by nvvm), its shared-memory loads and its PTX lines. For kernel work on a machine with
nvcc and no device, e.g. to check that a record stays in registers (thread_item_kernel.cuh):
    scripts/gpu/ptx-report.py build perf/assembly_gpu_runs.cu thread_item_kernel
The compile command is the build's (compile_commands.json), with -c replaced by -ptx.
With --sass (last argument) it compiles for sm_90 to a cubin instead and reports, per kernel
whose demangled short name matches FILTER, what ptxas made of it: registers and spill bytes
(ptxas -v), and where cuobjdump is on the PATH (the GPU host; not this CI image) the SASS
instructions, all and FSEL / DFMA / DMUL / DADD. E.g. whether a change costs registers:
    scripts/gpu/ptx-report.py build perf/assembly_gpu_runs.cu "thread_item_kernel<.*double" --sass"""
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

sass = sys.argv[-1] == "--sass"
if sass:
    sys.argv.pop()
if len(sys.argv) < 3:
    sys.exit(__doc__)
build, source = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
pattern = re.compile(sys.argv[3] if len(sys.argv) > 3 else ".")
commands = json.load(open(os.path.join(build, "compile_commands.json")))
entry = next((c for c in commands if os.path.abspath(c["file"]) == source), None)
if entry is None:
    sys.exit(f"{source} is not in {build}/compile_commands.json")
arguments = shlex.split(entry["command"])
with tempfile.TemporaryDirectory() as scratch:
    ptx = os.path.join(scratch, "out.ptx")
    command, skip = [], False
    for argument in arguments:
        if skip:
            skip = False
        elif argument == "-o":
            skip = True
        elif argument != "-c" and not argument.startswith("--generate-code"):
            command.append(argument)
    if sass:
        cubin = os.path.join(scratch, "out.cubin")
        command += ["-arch=sm_90", "-cubin", "-Xptxas", "-v", "-o", cubin]
        usage = subprocess.run(command, cwd=entry["directory"], check=True, capture_output=True,
                               text=True).stderr
        text = ""
        if shutil.which("cuobjdump"):
            text = subprocess.run(["cuobjdump", "-sass", cubin], capture_output=True, text=True,
                                  check=True).stdout
    else:
        command += ["-arch=sm_90", "-ptx", "-o", ptx]
        subprocess.run(command, cwd=entry["directory"], check=True, stderr=subprocess.DEVNULL)
        text = open(ptx).read()



def short_name(mangled):
    """The demangled name without its parameters, template arguments below the second level
    elided: thread_item_kernel<ElementLaunch<3, double, …>, 4, 4, 2>."""
    try:
        name = subprocess.run(["c++filt", mangled], capture_output=True, text=True).stdout.strip()
    except OSError:
        return mangled
    name = re.sub(r"\w+::", "", name.split("(")[0].removeprefix("void "))
    result, depth = [], 0
    for character in name:
        if character == "<":
            depth += 1
            if depth == 3:
                result.append("<…")
        elif character == ">":
            depth -= 1
            if depth == 2:
                result.append(">")
                continue
        if depth < 3:
            result.append(character)
    return "".join(result)


if sass:
    # ptxas -v: "Compiling entry function 'NAME'" then "Used N registers, ..." and spill lines.
    facts = {}
    for name, block in re.findall(r"Compiling entry function '(\w+)'.*?\n(.*?)(?=Compiling|\Z)",
                                  usage, re.S):
        registers = re.search(r"Used (\d+) registers", block)
        spills = re.search(r"(\d+) bytes spill stores", block)
        facts[name] = (registers.group(1) if registers else "?", spills.group(1) if spills else "?")
    sass_lines = {}
    for body in re.split(r"\n(?=\s*Function : )", text):
        match = re.match(r"\s*Function : (\w+)", body)
        if match:
            sass_lines[match.group(1)] = re.findall(r"/\*[0-9a-f]{4,}\*/\s+([^;]*);", body)
    opcodes = ("FSEL", "DFMA", "DMUL", "DADD")
    print(f"{'regs':>5} {'spill B':>7} {'SASS':>6} " + " ".join(f"{o:>6}" for o in opcodes)
          + "  kernel" + ("" if text else "  (no cuobjdump here: registers and spills only)"))
    for name, (registers, spills) in facts.items():
        short = short_name(name)
        if not pattern.search(short):
            continue
        lines = sass_lines.get(name, [])
        counts = [sum(1 for line in lines if re.search(rf"\b{o}\b", line)) for o in opcodes]
        print(f"{registers:>5} {spills:>7} {len(lines):>6} " + " ".join(f"{c:>6}" for c in counts)
              + f"  {short}")
    sys.exit(0)

print(f"{'local B':>8} {'ld.local':>8} {'st.local':>8} {'ld.shared':>9} {'lines':>6}  kernel")
for body in re.split(r"\n(?=\.visible \.entry|\.entry )", text):
    match = re.match(r"(?:\.visible )?\.entry (\w+)", body)
    if not match or not pattern.search(match.group(1)):
        continue
    depot = re.search(r"__local_depot\d+\[(\d+)\]", body)
    print(f"{int(depot.group(1)) if depot else 0:>8} {body.count('ld.local'):>8} "
          f"{body.count('st.local'):>8} {body.count('ld.shared'):>9} {body.count(chr(10)):>6}  "
          f"{short_name(match.group(1))}")
