#!/usr/bin/env bash
# Builds the Python wheel of the workbench,
# `queens_workbench-VERSION-cp39-abi3-manylinux2014_x86_64.manylinux_2_17_x86_64.whl`, into DIR
# (default dist/): one file for every CPython from 3.9 on any x86-64 Linux with glibc 2.17 or
# newer, whatever its CPU (the hot loops choose their vector paths at run time). It installs with
# `pip install DIR/queens_workbench-*.whl` in seconds, with no Rust toolchain, and brings the
# `queens_workbench` module and the whole `queens` command, `queens serve` and its page included.
#
#   scripts/wheel.sh [DIR]
#
# maturin and zig (the linker that targets the old glibc, from the `ziglang` package) are
# installed into a throwaway virtual environment. Other platforms, on a machine of that kind:
#   macOS (Intel and Apple silicon): maturin build --release --target universal2-apple-darwin
#   Windows (MSVC):                  maturin build --release
#   Linux aarch64, from x86-64:      rustup target add aarch64-unknown-linux-gnu, then
#                                    maturin build --release --zig --compatibility manylinux2014 \
#                                      --target aarch64-unknown-linux-gnu
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-dist}
tools=$(mktemp -d /tmp/queens-wheel-tools.XXXXXX)
trap 'rm -rf "$tools"' EXIT
python3 -m venv "$tools"
"$tools/bin/pip" install --quiet "maturin>=1.8,<2" ziglang
PATH="$tools/bin:$PATH" maturin build --release --zig --compatibility manylinux2014 --out "$out"
