"""The commands the README and the docs show are real: every `pitboard ...` line of a code block
parses with that command's own argument parser (a synopsis such as ``[--upgrades
basic|advanced|all]`` once per alternative, its placeholders filled in), every inline
`pitboard X --opt value` names a command, its options and their values, README's Commands
block lists every command, and every `make TARGET` is a Makefile target."""

from __future__ import annotations

import argparse
import importlib
import re
import shlex
from pathlib import Path

import pytest

from pitboard.cli import DELEGATED, build_parser

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
        *sorted((ROOT / "wiring_docs").glob("*.md"))]

#: `pitboard`, `.venv/bin/pitboard` or `/opt/pitboard/.venv/bin/pitboard`, then the command
INVOCATION = re.compile(r"^(?:sudo\s+)?(?:[\w.~/-]*/)?pitboard\s+([a-z][a-z-]*)(.*)$")
#: what makes a line a synopsis rather than a command to type as it is
SYNOPSIS = re.compile(r"[\[|<]|\.\.\.|(?<![\w-])[A-Z][A-Z_]*(?![\w-])")


def _commands() -> dict[str, argparse.ArgumentParser]:
    """Every `pitboard` command with the parser that reads its arguments."""
    main = build_parser()
    sub = next(a for a in main._actions if isinstance(a, argparse._SubParsersAction))
    parsers: dict[str, argparse.ArgumentParser] = dict(sub.choices)
    for name, module in DELEGATED.items():  # these parse their own arguments
        parsers[name] = importlib.import_module(module).build_parser()
    return parsers


COMMANDS = _commands()


def _code_lines() -> list[tuple[str, str]]:
    """(where, text) of every line in a fenced or indented code block that runs `pitboard`."""
    found = []
    for doc in DOCS:
        fenced = False
        for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
            if line.lstrip().startswith("```"):
                fenced = not fenced
                continue
            if (fenced or line.startswith("    ")) and INVOCATION.match(line.strip()):
                text = " ".join(shlex.split(line.strip(), comments=True))
                found.append((f"{doc.relative_to(ROOT)}:{number}", text))
    return found


def _inline_spans() -> list[tuple[str, str]]:
    """(where, text) of every inline code span of the docs' prose that runs `pitboard`."""
    found = []
    for doc in DOCS:
        prose = re.sub(r"^\s*```.*?^\s*```", "", doc.read_text(encoding="utf-8"),
                       flags=re.S | re.M)
        for span in re.findall(r"`([^`]+)`", prose):
            text = " ".join(span.split())
            if INVOCATION.match(text):
                found.append((str(doc.relative_to(ROOT)), text))
    return found


def _pick(alternatives: list[str], k: int) -> str:
    return alternatives[k % len(alternatives)]


def _variants(synopsis: str) -> list[list[str]]:
    """A synopsis as commands to type: optional parts in, each `a|b` alternative in turn,
    placeholders (N, FILE, <profile>) filled in."""
    text = synopsis.replace("...", " ")
    groups = [g.split(" | ") for g in re.findall(r"\[([^\[\]]*)\]", text)]
    words = [w.split("|") for w in re.findall(r"\S+\|\S+", text)]
    variants = []
    for k in range(max(len(alts) for alts in [*groups, *words, [""]])):
        line = re.sub(r"\[([^\[\]]*)\]", lambda m, k=k: _pick(m.group(1).split(" | "), k), text)
        line = re.sub(r"\S+\|\S+", lambda m, k=k: _pick(m.group(0).split("|"), k), line)
        line = re.sub(r"<[^>]+>", "x", line)
        line = re.sub(r"(?<![\w-])[A-Z][A-Z_]*(?![\w-])",
                      lambda m: "1" if m.group(0) == "N" else "x", line)
        variants.append(line.split())
    return variants


def _parse(words: list[str]) -> argparse.Namespace:
    parser = COMMANDS[words[0]]
    return parser.parse_args(words[1:])


CODE = _code_lines()


def test_the_docs_show_commands() -> None:
    assert len(CODE) >= 25 and len(_inline_spans()) >= 20


@pytest.mark.parametrize(("where", "line"), CODE, ids=[w for w, _ in CODE])
def test_every_command_line_parses(where: str, line: str) -> None:
    match = INVOCATION.match(line)
    assert match is not None
    words = [match.group(1), *shlex.split(match.group(2))]
    assert words[0] in COMMANDS, f"{where}: no command {words[0]!r} in: {line}"
    for variant in _variants(" ".join(words)) if SYNOPSIS.search(line) else [words]:
        try:
            _parse(variant)
        except (SystemExit, Exception) as exc:
            raise AssertionError(f"{where}: {' '.join(variant)} (from: {line}): {exc}") from None


def test_every_inline_command_names_real_options() -> None:
    wrong = []
    for where, span in _inline_spans():
        match = INVOCATION.match(span)
        assert match is not None
        name, rest = match.group(1), match.group(2).split()
        if name not in COMMANDS:
            wrong.append(f"{where}: no command {name!r}: {span}")
            continue
        options = COMMANDS[name]._option_string_actions
        for i, word in enumerate(rest):
            if not word.startswith("--"):
                continue
            action = options.get(word)
            if action is None:
                wrong.append(f"{where}: {name} has no {word}: {span}")
            elif action.choices is not None and i + 1 < len(rest) \
                    and not rest[i + 1].startswith("-"):
                bad = [v for v in rest[i + 1].split("|") if v not in action.choices]
                if bad:
                    wrong.append(f"{where}: {word} takes no {bad}: {span}")
    assert wrong == []


def test_readme_lists_every_command() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("## Commands\n", 1)[1].split("```", 2)[1]
    listed = {m.group(1) for line in block.splitlines() if (m := INVOCATION.match(line))}
    assert listed == set(COMMANDS)


def test_every_make_target_named_exists() -> None:
    makefile = (ROOT / "Makefile").read_text()
    targets = set(re.findall(r"^([a-z][\w-]*):", makefile, flags=re.M))
    named = {(doc.name, t) for doc in DOCS  # `make X`, sudo make X, make X at a line's start
             for t in re.findall(r"(?:`|^\s*|sudo )make ([a-z][\w-]*)",
                                 doc.read_text(encoding="utf-8"), flags=re.M)}
    assert {"demo", "test", "install-pi", "install-pi-dry-run"} <= {t for _, t in named}
    assert {t for _, t in named} <= targets, sorted(n for n in named if n[1] not in targets)


def test_every_python_module_run_names_a_runnable_module() -> None:
    """`python -m pitboard.X` in the docs names a module that runs (a package needs a
    __main__)."""
    import importlib.util

    named = {m for doc in DOCS
             for m in re.findall(r"python3? -m (pitboard[\w.]*)", doc.read_text(encoding="utf-8"))}
    for name in named:
        spec = importlib.util.find_spec(name)
        assert spec is not None, name
        if spec.submodule_search_locations is not None:  # a package
            assert importlib.util.find_spec(f"{name}.__main__") is not None, f"{name}: no __main__"


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_every_path_and_link_the_docs_name_exists() -> None:
    missing = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        anchors = {_slug(h) for h in re.findall(r"^#+ (.*)$", text, flags=re.M)}
        for target, anchor in re.findall(r"\]\(([^)#\s]*)(?:#([^)\s]*))?\)", text):
            if target.startswith(("http://", "https://")):
                continue
            if target and not (doc.parent / target).exists():
                missing.append(f"{doc.name}: link {target}")
            if anchor and not target and anchor not in anchors:
                missing.append(f"{doc.name}: link #{anchor}")
        for path in re.findall(r"`((?:firmware_py|docs|tests|benchmarks|hw_config|systemd|"
                               r"wiring_docs|tools)/[^`\s<>*]*)`", text):
            if not (ROOT / path).exists():
                missing.append(f"{doc.name}: {path}")
    assert missing == []


def test_readme_and_make_bench_name_every_benchmark() -> None:
    files = {p.name for p in (ROOT / "benchmarks").glob("*.py")}
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    recipe = (ROOT / "Makefile").read_text().split("\nbench:", 1)[1].split("\n\n", 1)[0]
    assert set(re.findall(r"`benchmarks/(\w+\.py)`", readme)) == files
    assert set(re.findall(r"benchmarks/(\w+\.py)", recipe)) == files


def test_the_module_options_readme_lists_are_on_each_command_it_names() -> None:
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    match = re.search(r"`sim`, `demo` and `simulate` take the same rules-module options "
                      r"\(([^)]*)\)", readme)
    assert match is not None
    options = re.findall(r"`(--[a-z-]+)`", match.group(1))
    assert len(options) >= 8
    for name in ("sim", "demo", "simulate"):
        assert set(options) <= set(COMMANDS[name]._option_string_actions), name


def test_pitboard_help_and_readme_give_the_same_reasons_for_exit_1() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    row = next(line for line in readme.splitlines() if line.startswith("| 1 |"))
    epilog = " ".join((build_parser().epilog or "").split())
    for named in ("sim --autoplay", "wiring-docs --check", "hw-test"):
        assert named in row
    assert "stuck autoplay" in epilog and "wiring-docs --check" in epilog and "hw-test" in epilog
