#!/usr/bin/env python3
"""Writes examples/notebook.ipynb from examples/notebook.py: `# %%` starts a code cell, `# %%
[markdown]` a text cell whose lines start with `# `. With --check, fails if the notebook is not
what the script would write."""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "examples" / "notebook.py"
NOTEBOOK = ROOT / "examples" / "notebook.ipynb"


def cells(text: str) -> list:
    result = []
    for chunk in text.split("# %%")[1:]:
        head, _, body = chunk.partition("\n")
        lines = body.strip("\n").split("\n")
        if head.strip() == "[markdown]":
            source = [line[2:] if line.startswith("# ") else line.lstrip("#") for line in lines]
            result.append({"cell_type": "markdown", "metadata": {}, "source": source})
        else:
            result.append({
                "cell_type": "code",
                "execution_count": None,
                "metadata": {},
                "outputs": [],
                "source": lines,
            })
    for cell in result:
        cell["source"] = [line + "\n" for line in cell["source"][:-1]] + cell["source"][-1:]
    return result


def notebook() -> str:
    document = {
        "cells": cells(SOURCE.read_text()),
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    if "--check" in sys.argv:
        if NOTEBOOK.read_text() != notebook():
            sys.exit("examples/notebook.ipynb is out of date: run python scripts/notebook.py")
    else:
        NOTEBOOK.write_text(notebook())
