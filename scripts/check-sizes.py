#!/usr/bin/env python3
"""Holds the code to its room sizes: no function over 100 lines in Rust, JavaScript or Python,
and no source file over 800 lines outside tests.

    python3 scripts/check-sizes.py

Prints each function or file over its size and exits 1 if there is one. Python functions are
measured from their syntax tree; Rust and JavaScript ones from the line that opens them to
the brace that closes them (strings and line comments skipped), which counts a closure or a
nested function as part of the one it stands in, and a class method as a function of its own.
"""
import ast
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
MOST_FUNCTION_LINES = 100
MOST_FILE_LINES = 800
SOURCE = (".rs", ".js", ".mjs", ".py")

RUST_FUNCTION = re.compile(r"^\s*(pub(\([^)]*\))?\s+)?(const\s+)?(async\s+)?(unsafe\s+)?fn\s")
JS_FUNCTION = re.compile(
    r"^\s*("
    r"(export\s+)?(async\s+)?function[\s*]"  # a declaration
    r"|(async\s+)?(static\s+|get\s+|set\s+)?(?!(if|for|while|switch|catch)\b)[A-Za-z_$][\w$]*\s*\(.*\)\s*\{\s*$"  # a method
    r"|.*=>\s*\{\s*$"  # an arrow function with a body
    r")"
)
STRINGS_AND_COMMENTS = re.compile(r'"(\\.|[^"\\])*"|\'(\\.|[^\'\\])*\'|`[^`]*`|//.*')


def tracked_files():
    listed = subprocess.run(
        ["git", "ls-files", "crates", "scripts"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    return [ROOT / name for name in listed if name.endswith(SOURCE)]


def braced_functions(lines, pattern):
    """(first line, length, text) of each function that `pattern` opens."""
    for start, line in enumerate(lines):
        if not pattern.match(line):
            continue
        depth, opened = 0, False
        for end in range(start, len(lines)):
            code = STRINGS_AND_COMMENTS.sub("", lines[end])
            for character in code:
                if character == "{":
                    depth, opened = depth + 1, True
                elif character == "}":
                    depth -= 1
            if opened and depth <= 0:
                yield start + 1, end - start + 1, line.strip()
                break
            if not opened and code.rstrip().endswith(";"):
                break


def python_functions(text):
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node.lineno, node.end_lineno - node.lineno + 1, f"def {node.name}"


def in_tests(path):
    parts = path.relative_to(ROOT).parts
    return "tests" in parts or "page-tests" in parts or "benches" in parts


def main():
    over = []
    for path in tracked_files():
        text = path.read_text(encoding="utf-8")
        lines = text.split("\n")
        name = path.relative_to(ROOT)
        if not in_tests(path) and len(lines) > MOST_FILE_LINES:
            over.append(f"{name}: {len(lines)} lines (a source file holds at most {MOST_FILE_LINES})")
        if path.suffix == ".py":
            functions = python_functions(text)
        else:
            functions = braced_functions(lines, RUST_FUNCTION if path.suffix == ".rs" else JS_FUNCTION)
        for first, length, opening in functions:
            if length > MOST_FUNCTION_LINES:
                over.append(f"{name}:{first}: {opening[:60]} is {length} lines (at most {MOST_FUNCTION_LINES})")
    for line in over:
        print(line)
    if over:
        return 1
    print(f"every function is at most {MOST_FUNCTION_LINES} lines and every source file at most {MOST_FILE_LINES}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
