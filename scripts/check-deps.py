#!/usr/bin/env python3
"""Fails when scripts/install-deps.sh would leave a fresh Debian 12 machine unable to configure,
build, test or run ReductionLab, whatever is installed on the machine running the check.

Why: qt6-charts-dev does not depend on libqt6opengl6-dev, yet Qt6Charts' CMake config
needs Qt6OpenGL; CI passed only because that package had been installed by hand.

How: each Debian package owning a file the configured build uses must be in the apt dependency
closure of the packages listed in install-deps.sh (of an "a | b" dependency only the first
counts: that is what apt installs). Used: the find_package configs in CMakeCache.txt; the tools,
include dirs and libraries in build.ninja and AutogenInfo.json and the compiler's own; the
headers the compiled objects include (`ninja -t deps`, once compiled); at run time the shared
libraries of the built programs (ldd), the Qt plugins and the fallback font the app loads.
The CUDA toolkit in /usr/local/cuda is a stated precondition and is not checked, nor are
wrapper scripts that only exec a toolkit program (an nvcc in /usr/local/bin).

Usage: check-deps.py SOURCE_DIR BUILD_DIR [--drop PKG]   (ctest: install_deps_closure)
apt-cache must know the listed packages (`apt-get update` once if it does not).
"""
import argparse
import glob
import os
import re
import subprocess
import sys
import time

APT_DEPENDS = ["apt-cache", "depends", "--recurse", "--no-recommends", "--no-suggests",
               "--no-conflicts", "--no-breaks", "--no-replaces", "--no-enhances"]
SYSTEM = re.compile(r"/(usr|lib|lib64|bin|sbin)/")
# A system path in a command line, a CMake list or JSON (also right after -I or -L).
PATH_RE = re.compile(r"(?:(?<=[\s=\"';,])|(?<=-I)|(?<=-L)|^)(/(?:usr|lib|lib64|bin|sbin)/"
                     r"[^\s\"';,]+)")
# What the app loads at run time that the build never names: (path in the Qt plugin dir, why).
RUNTIME = [("platforms/libqxcb.so", "Qt platform plugin of the app on a desktop"),
           ("platforms/libqoffscreen.so", "Qt platform plugin of gui_tests and --export-charts"),
           ("iconengines/libqsvgicon.so", "Qt SVG icon engine: the window icon reductionlab.svg"),
           ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
            "system font fontconfig falls back to for glyphs the bundled DejaVu Sans lacks")]


def sh(cmd):
  try:
    return subprocess.run(cmd, capture_output=True, text=True).stdout
  except FileNotFoundError:
    sys.exit(f"check-deps: FAILED: no {cmd[0]}: this check needs Debian's apt, dpkg and ninja")


def read(path):
  with open(path, errors="replace") as f:
    return f.read()


def listed_packages(script):
  """The words of the `packages=( ... )` array in install-deps.sh, comments left out."""
  m = re.search(r"^packages=\((.*?)\)", read(script), re.S | re.M)
  if not m:
    sys.exit(f"check-deps: no packages=( ... ) array in {script}")
  return [w for line in m.group(1).splitlines() for w in line.split("#", 1)[0].split()]


def resolve(names):
  """The real packages apt installs for the listed names (a virtual name by its providers);
  exits naming each name apt-cache knows no package for."""
  blocks = {b.split("\n", 1)[0].strip(): b
            for b in sh(["apt-cache", "showpkg", *names]).split("Package: ")[1:]}
  roots, unknown = set(), []
  for name in names:
    block = blocks.get(name, "")
    versions = block.partition("Versions:")[2].partition("Reverse Depends:")[0]
    providers = [l.split()[0] for l in block.partition("Reverse Provides:")[2].splitlines()
                 if l.strip()]
    if re.search(r"^\S", versions, re.M):
      roots.add(name)
    elif providers:
      roots.update(providers)
    else:
      unknown.append(name)
  if unknown:
    sys.exit(f"check-deps: FAILED: apt-cache knows no package that installs {', '.join(unknown)}"
             " (listed in install-deps.sh): a misspelt or dropped name, or apt's lists are "
             "missing or stale; run `sudo apt-get update` once, then check again.")
  return roots


def closure(roots):
  """The packages apt installs for roots: Depends and Pre-Depends, recursively."""
  graph, groups, kept = {}, None, False  # package -> [OR group: [[name, providers, or_next]]]
  for line in sh(APT_DEPENDS + sorted(roots)).splitlines():
    if not line.startswith(" "):
      groups, kept = graph.setdefault(line, []), False
    elif line.startswith("    "):  # a package providing the alternative above
      if kept:
        groups[-1][-1][1].append(line.strip())
    else:
      bar, kind, target = re.match(r" ([ |])(\w+): (.*)", line).groups()
      kept = kind in ("Depends", "PreDepends")
      if kept and groups and groups[-1][-1][2]:
        groups[-1].append([target, [], bar == "|"])
      elif kept:
        groups.append([[target, [], bar == "|"]])

  def first(group):  # a real package as is, a virtual one (<name>) by its providers
    for name, providers, _ in group:
      if not name.startswith("<"):
        return [name]
      if providers:
        return providers
    return []

  seen, todo = set(), list(roots)
  while todo:
    p = todo.pop()
    if p not in seen:
      seen.add(p)
      for group in graph.get(p, []):
        todo += first(group)
  return {p.split(":")[0] for p in seen}


def configure_files(cache):
  """{path: why}: the packages CMake found and the tools the tests run."""
  used = {}
  for name, d in re.findall(r"^(\w+)_DIR:PATH=(/.*)$", cache, re.M):
    for config in (f"{name}Config.cmake", f"{name.lower()}-config.cmake"):
      if os.path.isfile(os.path.join(d, config)):
        used[os.path.join(d, config)] = f"find_package({name}) config, CMakeCache {name}_DIR"
  for name, tool in re.findall(r"^(RL_\w+):FILEPATH=(/.*)$", cache, re.M):
    used[tool] = f"tool found at configure ({name})"
  return used


def build_files(build):
  """{path: why}: compilers, tools, include dirs and libraries, -lNAME found as ld finds it."""
  used, lib_dirs, flags = {}, [], []
  for f in glob.glob(os.path.join(build, "CMakeFiles", "*", "CMakeCXXCompiler.cmake")):
    text = read(f)
    implicit = dict(re.findall(r'CMAKE_CXX_IMPLICIT_(\w+) "(.*)"', text))
    lib_dirs += implicit["LINK_DIRECTORIES"].split(";")
    flags += ["-l" + lib for lib in implicit["LINK_LIBRARIES"].split(";")]
    for d in implicit["INCLUDE_DIRECTORIES"].split(";"):
      used[d] = "compiler's include dir"
  for line in (read(os.path.join(build, "build.ninja")) +
               read(os.path.join(build, "CMakeFiles", "rules.ninja"))).splitlines():
    if "RERUN_CMAKE" in line or line.endswith(": phony"):  # all configure read, optional
      continue  # includes too (GTestConfig.cmake's GMockTargets.cmake): not all needed
    for p in PATH_RE.findall(line):
      used.setdefault(p, "linked" if re.search(r"\.(a|so[.\d]*)$", p) else
                      "include dir" if "/include" in p else
                      "tool" if re.search(r"/(bin|libexec)/", p) else "in build.ninja")
    if line.strip().split(" ")[0] in ("LINK_LIBRARIES", "LINK_PATH", "LINK_FLAGS"):
      flags += line.split()
  lib_dirs = [f[2:] for f in flags if f.startswith("-L")] + lib_dirs
  for lib in dict.fromkeys(f[2:] for f in flags if f.startswith("-l")):
    found = [p for d in lib_dirs for p in (f"{d}/lib{lib}.so", f"{d}/lib{lib}.a")
             if os.path.exists(p)]  # each dir in turn, .so before .a
    if found:
      used.setdefault(found[0], f"linked (-l{lib})")
  for f in glob.glob(os.path.join(build, "**", "AutogenInfo.json"), recursive=True):
    for p in PATH_RE.findall(read(f)):
      used.setdefault(p, "AutogenInfo.json (moc)")
  return used


def compiled_files(build, ninja):
  """{path: why}: the headers compiled objects include, the libraries built programs load."""
  used, notes = {}, []
  if os.path.exists(os.path.join(build, ".ninja_deps")):  # -n: reads the logs, writes nothing
    for line in sh([ninja, "-C", build, "-n", "-t", "deps"]).splitlines():
      if line.startswith("    /"):
        used[line.strip()] = "header a compiled object includes"
  else:
    notes.append("not compiled yet: include dirs checked, not each header")
  programs = []
  for root, dirs, names in os.walk(build):
    dirs[:] = [d for d in dirs if d != "CMakeFiles"]
    for f in (os.path.join(root, n) for n in names):
      if os.path.isfile(f) and os.access(f, os.X_OK):
        with open(f, "rb") as fh:
          if fh.read(4) == b"\x7fELF":
            programs.append(f)
  for p in re.findall(r"(?:=> |^\s+)(/\S+) \(0x", sh(["ldd", *programs]) if programs else "",
                      re.M):
    used.setdefault(p, "run time: shared library of a built program")
  if not programs:
    notes.append("no programs built yet: their shared libraries not checked")
  return used, notes


def runtime_files(cache):
  """{path: why}: what the app loads that the build never names."""
  qt_core = re.search(r"^Qt6Core_DIR:PATH=(/.*)$", cache, re.M)
  if not qt_core:  # no GUI
    return {}
  # Debian's layout: <libdir>/cmake/Qt6Core, <libdir>/qt6/plugins
  plugins = os.path.join(os.path.dirname(os.path.dirname(qt_core.group(1))), "qt6", "plugins")
  return {os.path.join(plugins, path): f"run time: {why}" for path, why in RUNTIME}


def dpkg_owners():
  owners = {}
  for f in glob.glob("/var/lib/dpkg/info/*.list"):
    pkg = os.path.basename(f)[:-5].split(":")[0]
    with open(f, errors="replace") as fh:
      for line in fh:
        owners.setdefault(line.rstrip("\n"), set()).add(pkg)
  return owners


def aliases(path):
  """usrmerge: /lib/x and /usr/lib/x are one file, and dpkg may record either."""
  yield path
  for top in ("/bin/", "/sbin/", "/lib"):
    if path.startswith("/usr" + top):
      yield path[4:]
    elif path.startswith(top):
      yield "/usr" + path


def hops(path):
  """The path, each symlink it goes through, and the file it ends at."""
  out = [path]
  while os.path.islink(out[-1]) and len(out) < 10:
    out.append(os.path.normpath(os.path.join(os.path.dirname(out[-1]), os.readlink(out[-1]))))
  return list(dict.fromkeys(out + [os.path.realpath(path)]))


def toolkit_wrapper(path, skip):
  """A small script on PATH that only runs a toolkit program (CI's /usr/local/bin/nvcc is
  `exec /usr/local/cuda-13.0/bin/nvcc "$@"`): part of the toolkit, like what it runs."""
  try:
    if os.path.getsize(path) > 4096:
      return False
    with open(path, errors="replace") as fh:
      text = fh.read()
  except OSError:
    return False
  targets = re.findall(r"\bexec\s+\"?(/[^\s\"]+)", text)
  return text.startswith("#!") and bool(targets) and all(
      any(os.path.realpath(t).startswith(s) or t.startswith(s) for s in skip) for t in targets)


def main():
  ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
  ap.add_argument("source_dir")
  ap.add_argument("build_dir")
  ap.add_argument("--drop", action="append", default=[], metavar="PKG",
                  help="check the list without PKG (the ctest proving the check catches it)")
  args = ap.parse_args()
  start = time.monotonic()
  listed = [p for p in listed_packages(os.path.join(args.source_dir, "scripts/install-deps.sh"))
            if p not in args.drop]
  of_list = "scripts/install-deps.sh's packages" + (
      f" (less {', '.join(args.drop)})" if args.drop else "")
  installed = closure(resolve(listed))

  build = args.build_dir
  if not os.path.isfile(os.path.join(build, "build.ninja")):
    sys.exit(f"check-deps: {build} has no build.ninja: configure it with -G Ninja first")
  cache = read(os.path.join(build, "CMakeCache.txt"))
  ninja = re.search(r"^CMAKE_MAKE_PROGRAM:FILEPATH=(.*)$", cache, re.M).group(1)
  used = configure_files(cache)
  for more in (build_files(build), runtime_files(cache)):
    for path, why in more.items():
      used.setdefault(os.path.normpath(path), why)
  compiled, notes = compiled_files(build, ninja)
  for path, why in compiled.items():
    used.setdefault(os.path.normpath(path), why)
  used.setdefault(os.path.realpath(sys.executable), "runs this check")

  skip = [os.path.realpath(p) + "/" for p in (args.source_dir, build, "/usr/local/cuda")]
  skip += ["/usr/local/cuda/", "/usr/local/cuda-"]
  owners, missing, unowned, packages, files = dpkg_owners(), {}, [], set(), 0
  for path, why in used.items():
    if not SYSTEM.match(path) or not os.path.exists(path):
      continue
    owned = False
    for hop in hops(path):
      pkgs = set().union(*(owners.get(a, set()) for a in aliases(hop)))
      if not pkgs or any(hop.startswith(s) for s in skip):
        continue
      owned, files = True, files + 1
      packages |= pkgs & installed or pkgs  # a dir has many owners: one in the closure will do
      if not pkgs & installed:
        missing.setdefault(" or ".join(sorted(pkgs)), []).append((hop, why))
    if not owned and not os.path.isdir(path) and not any(path.startswith(s) for s in skip) \
        and not toolkit_wrapper(path, skip):
      unowned.append((path, why))

  for pkg, uses in sorted(missing.items()):
    (first, why), more = uses[0], sorted({w for _, w in uses[1:]})
    print(f"{pkg}: not in the dependency closure of {of_list}; the build uses {first} ({why})" +
          (f" and {len(uses) - 1} more of its files ({'; '.join(more)})" if more else ""))
  for path, why in unowned:
    print(f"{path} ({why}): no Debian package owns it, so a fresh machine lacks it")
  took = f"{time.monotonic() - start:.1f} s"
  if missing or unowned:
    print(f"check-deps: FAILED: add the packages above to packages=( ... ) in "
          f"scripts/install-deps.sh ({took})")
    return 1
  print(f"check-deps: OK: {files} files the build uses come from {len(packages)} Debian packages, "
        f"all in the dependency closure ({len(installed)} packages) of {len(listed)} listed in "
        f"scripts/install-deps.sh" + "".join(f"; {n}" for n in notes) + f" ({took})")
  return 0


if __name__ == "__main__":
  sys.exit(main())
