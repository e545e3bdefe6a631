"""Writes python/requirements-SET.txt from python/requirements-SET.in: every pinned package
(`name==version`, the transitive ones included, one a line) with the SHA-256 of every wheel and
source archive PyPI has for that version, as `pip install --require-hashes` wants them. Run it
after changing a `.in` file (it reads PyPI's simple index; nothing is installed):

    python3 python/lock.py peers
"""
import json
import re
import sys
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
INDEX = "https://pypi.org/simple/{}/"


def normalized(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def files_of(name, version):
    req = urllib.request.Request(INDEX.format(normalized(name)), headers={"Accept": "application/vnd.pypi.simple.v1+json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        index = json.load(r)
    # A file of this version: `<name>-<version>-…whl` or `<name>-<version>.tar.gz`, the name's separators as _ or -.
    stem = re.compile(r"^" + re.sub(r"[-_.]+", "[-_.]", re.escape(name).replace("\\", "")) + "-" + re.escape(version) + r"(-|\.tar\.gz$|\.zip$)", re.I)
    out = [(f["filename"], f["hashes"]["sha256"]) for f in index["files"] if stem.match(f["filename"]) and not f.get("yanked")]
    if not out:
        sys.exit(f"lock.py: PyPI has no file of {name}=={version}")
    return sorted(out)


def main(which):
    src = HERE / f"requirements-{which}.in"
    lines = [
        f"# Written by `python3 python/lock.py {which}` from {src.name}: do not edit by hand.",
        f"# Installed by `node --import tsx scripts/ensure-python.ts {which}` with pip --require-hashes.",
    ]
    for raw in src.read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("--"):
            # a pip option of the set (`--no-binary NAME` for a package PyPI has only as source), kept as is
            lines.append(line)
            continue
        name, version = line.split("==")
        hashes = files_of(name.strip(), version.strip())
        lines.append(f"{name.strip()}=={version.strip()} \\")
        cont = " \\"
        lines += [f"    --hash=sha256:{h}" + (cont if i < len(hashes) - 1 else "") for i, (_, h) in enumerate(hashes)]
    (HERE / f"requirements-{which}.txt").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "peers")
