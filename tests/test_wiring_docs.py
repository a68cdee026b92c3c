"""wiring_docs/ is generated from hw_config: drift, --check, WireViz YAML, drawings, contents."""

from __future__ import annotations

import importlib.util
import re
import shutil
from pathlib import Path

import pytest

from pitboard.hw.mcp23017 import STATION_BITS
from pitboard.hwconfig import BCM_TO_PHYSICAL, Mcp23017Input, load_profile, pin_map
from pitboard.hwconfig.installfacts import extra_i2c_lines
from pitboard.wiring import (
    DEFAULT_PROFILES,
    Plan,
    bom_rows,
    build_harness,
    config_txt_lines,
    main,
    render,
    replace_sections,
    source_digest,
    stamp_of,
    to_yaml,
)

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "wiring_docs"
INSTALL = REPO / "systemd" / "install-pi.sh"
HAS_WIREVIZ = importlib.util.find_spec("wireviz") is not None
HAS_YAML = importlib.util.find_spec("yaml") is not None
HAS_DOT = shutil.which("dot") is not None


def profile_copy(tmp_path: Path, name: str, old: str, new: str) -> Path:
    """A copy of a shipped profile with one edit (same file name, so the same doc names)."""
    text = (REPO / "hw_config" / f"{name}.toml").read_text()
    assert text.count(old) == 1, old
    path = tmp_path / "profiles" / f"{name}.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text.replace(old, new))
    return path


def tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


# ---- drift --------------------------------------------------------------------------------------


def test_committed_docs_are_what_the_profiles_generate() -> None:
    plan = Plan.build([load_profile(n) for n in DEFAULT_PROFILES], DOCS)
    stale = plan.stale_texts()
    assert not stale, f"stale: {sorted(stale)}; run pitboard wiring-docs"
    assert not plan.stale_drawings(), "drawings out of date; run pitboard wiring-docs"


def test_check_passes_on_the_committed_docs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--check", "--out", str(DOCS)]) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(
    ("profile", "old", "new"),
    [
        ("duo", "lever = [4, 17, 27, 22]", "lever = [17, 4, 27, 22]"),  # S1 gears 1/2 swapped
        ("grid6", "mux_channel = 0, address = 0x20, int_pin = 17",
         "mux_channel = 0, address = 0x20, int_pin = 18"),  # S1 INT moved to pin 12
    ],
)
def test_a_moved_pin_makes_check_fail_naming_the_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], profile: str, old: str, new: str
) -> None:
    changed = profile_copy(tmp_path, profile, old, new)
    before = tree(DOCS)
    assert main(["--check", "--profile", str(changed), "--out", str(DOCS)]) == 1
    err = capsys.readouterr().err
    named = {Path(line.split(":")[0]).name for line in err.splitlines()}
    assert {f"{profile}.md", f"{profile}-harness.yaml", f"{profile}-harness.svg",
            f"{profile}-harness.png"} <= named
    assert f"{profile}-bom.md" not in named  # same parts, other pins
    assert "station-board.md" not in named and "README.md" not in named
    for line in err.splitlines():
        assert line.endswith("stale (run pitboard wiring-docs)")
    assert tree(DOCS) == before  # --check writes nothing


def test_writing_restores_generated_text_and_keeps_hand_written_text(tmp_path: Path) -> None:
    out = tmp_path / "docs"
    shutil.copytree(DOCS, out)
    board = out / "station-board.md"
    text = board.read_text()
    edited = text.replace("| 21 | GPA0 |", "| 21 | GPA0 (edited) |")
    edited = edited.replace("# Station boards", "# Station boards, my notes")
    assert edited != text
    board.write_text(edited)
    (out / "duo.md").write_text("scribbled over\n")
    (out / "grid6-bom.md").unlink()

    assert main(["--check", "--out", str(out)]) == 1
    assert main(["--out", str(out), "--no-render"]) == 0
    assert (out / "duo.md").read_text() == (DOCS / "duo.md").read_text()
    assert (out / "grid6-bom.md").read_text() == (DOCS / "grid6-bom.md").read_text()
    restored = board.read_text()
    assert "| 21 | GPA0 |" in restored and "(edited)" not in restored
    assert "# Station boards, my notes" in restored
    assert main(["--check", "--out", str(out)]) == 0


def test_replace_sections_appends_a_missing_section() -> None:
    text = replace_sections("# Notes\n\nmine\n", {"k": "body"})
    assert text.startswith("# Notes\n\nmine\n\n<!-- BEGIN GENERATED k:")
    assert text.endswith("body\n<!-- END GENERATED k -->\n")
    assert replace_sections(text, {"k": "body"}) == text


# ---- bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize("profile", ["nosuch", "sim"])
def test_bad_profile_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], profile: str
) -> None:
    out = tmp_path / "docs"
    assert main(["--profile", profile, "--out", str(out)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("pitboard wiring-docs: ")
    assert "Traceback" not in captured.err
    assert not out.exists()


def test_invalid_profile_file_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = profile_copy(tmp_path, "duo", "go = 26", "go = 21")  # S2's GO pin
    assert main(["--check", "--profile", str(broken)]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "GPIO 21" in err


# ---- WireViz ------------------------------------------------------------------------------------


def harness_files() -> list[Path]:
    return sorted(DOCS.glob("*-harness.yaml"))


def test_harness_files_are_generated_and_marked() -> None:
    assert [p.name for p in harness_files()] == [
        "duo-harness.yaml", "grid6-harness.yaml", "station-board-harness.yaml"]
    for path in harness_files():
        assert path.read_text().startswith("# GENERATED by `pitboard wiring-docs`")


@pytest.mark.skipif(not HAS_YAML, reason="PyYAML not installed (it comes with wireviz: .[docs])")
@pytest.mark.parametrize("profile", DEFAULT_PROFILES)
def test_harness_yaml_is_the_harness(profile: str) -> None:
    import yaml

    data = yaml.safe_load((DOCS / f"{profile}-harness.yaml").read_text())
    assert data == build_harness(load_profile(profile)).wireviz()


@pytest.mark.skipif(not HAS_YAML, reason="PyYAML not installed (it comes with wireviz: .[docs])")
def test_to_yaml_quotes_what_yaml_would_misread() -> None:
    import yaml

    value = {"a": ["3V3", "yes", "No", "1.5", "x: y", 'say "hi"', "Ω", "#", ""],
             "b": [{"c": [1, 2.5, True]}, [["x"]]], "d": {"e": 0}}
    assert yaml.safe_load("\n".join(to_yaml(value))) == value


@pytest.mark.skipif(not HAS_WIREVIZ, reason="wireviz not installed (pip install -e '.[docs]')")
@pytest.mark.parametrize("path", harness_files(), ids=lambda p: p.name)
def test_harness_yaml_loads_in_wireviz(path: Path) -> None:
    from wireviz import wireviz

    harness = wireviz.parse(path.read_text(), return_types="harness")  # no drawing: no `dot`
    names = set(harness.connectors) | set(harness.cables)
    expected = {"duo-harness.yaml": {"PI", "W1", "X1", "W2", "X2"},
                "grid6-harness.yaml": {"PI", "MUX", "PWR", "W0", "J6", "C6", "P6", "CON"},
                "station-board-harness.yaml": {"U1", "OLED", "LEVER", "SW_GO", "P"}}[path.name]
    assert expected <= names
    for cable in harness.cables.values():
        assert cable.wirecount == len(cable.colors) == len(cable.wirelabels)


@pytest.mark.skipif(not (HAS_WIREVIZ and HAS_DOT),
                    reason="drawing needs wireviz (.[docs]) and Graphviz `dot` (apt graphviz)")
def test_drawings_render_and_carry_their_source_digest(tmp_path: Path) -> None:
    path = DOCS / "duo-harness.yaml"
    text = path.read_text()
    svg, png = render(text)
    (tmp_path / "d.svg").write_text(svg)
    (tmp_path / "d.png").write_bytes(png)
    assert svg.lstrip().startswith("<?xml") and "</svg>" in svg
    assert png.startswith(b"\x89PNG")
    for ext in ("svg", "png"):
        assert stamp_of(tmp_path / f"d.{ext}") == source_digest(text)
    for label in ("GEAR1", "SLOT6", "GO", "GPIO26"):
        assert label in svg


def test_committed_drawings_carry_their_yaml_digest() -> None:
    for path in harness_files():
        digest = source_digest(path.read_text())
        for ext in (".svg", ".png"):
            drawing = path.with_name(path.name.replace(".yaml", ext))
            assert stamp_of(drawing) == digest, drawing.name


# ---- contents -----------------------------------------------------------------------------------


@pytest.mark.parametrize("profile", DEFAULT_PROFILES)
def test_pin_table_lists_every_pin_of_the_pin_map(profile: str) -> None:
    config = load_profile(profile)
    doc = (DOCS / f"{profile}.md").read_text()
    for use in pin_map(config):
        assert re.search(rf"^\| {use.physical} \| GPIO{use.bcm} \| {re.escape(use.function)} \|",
                         doc, re.M), use


@pytest.mark.parametrize("profile", DEFAULT_PROFILES)
def test_harness_wires_every_station_line(profile: str) -> None:
    config = load_profile(profile)
    harness = build_harness(config)
    pi_pins = {w.src_pin for w in harness.wires if w.src == "PI"}
    station_pins = {u.physical for u in pin_map(config) if u.station is not None}
    assert station_pins <= pi_pins
    for s in config.stations:
        if isinstance(s.input, Mcp23017Input) and s.input.int_pin is not None:
            n = s.index + 1
            assert any(w.src == "PI" and w.src_pin == BCM_TO_PHYSICAL[s.input.int_pin]
                       and w.dst == f"J{n}" and w.dst_pin == 7 for w in harness.wires)


@pytest.mark.parametrize("profile", DEFAULT_PROFILES)
def test_config_txt_lines_match_install_pi(profile: str) -> None:
    """The docs show the block install-pi.sh writes (checked against its source)."""
    script = INSTALL.read_text()
    config = load_profile(profile)
    lines = config_txt_lines(config)
    # the extra controllers' lines come whole from check-config --install-facts (the same
    # function builds them for these docs); test_install_pi installs grid6 and compares the block
    extra = set(extra_i2c_lines(config, "pi4") + extra_i2c_lines(config, "pi5"))
    for line in lines:
        if line in extra:
            continue
        key = re.sub(r"=(0x[0-9a-f]+|\d+|on|off)$", "=", line)
        key = key.replace("baudrate=", "baudrate=${fact[i2c_baudrate]}")
        key = key.replace("addr=", "addr=${fact[mux_address]}")
        assert key in script or line in script, line
    doc = (DOCS / f"{profile}.md").read_text()
    assert "```ini\n" + "\n".join(lines) + "\n```" in doc
    assert "dtparam=i2c_arm=on,i2c_arm_baudrate=400000" in lines
    assert ("dtoverlay=i2c-mux,pca9548,addr=0x70" in lines) == (profile == "grid6")
    assert ("enable_uart=1" in lines) == (profile == "grid6")


def test_bom_quantities_follow_the_profile() -> None:
    def qty(profile: str, start: str) -> str:
        return next(q for q, part, _ in bom_rows(load_profile(profile)) if part.startswith(start))

    assert qty("grid6", "Push button") == "42" and qty("duo", "Push button") == "14"
    assert qty("grid6", "MCP23017") == "6" and qty("grid6", "TCA9548A") == "3"
    assert qty("grid6", "Resistor 4.7 kOhm") == "4"  # the pull-ups of controllers B and C
    assert qty("grid6", "RJ45") == "12" and qty("grid6", "OLED") == "7"  # + race control
    assert qty("duo", "Resistor 1 kOhm") == "24" and qty("duo", "OLED") == "2"
    duo_parts = " ".join(part for _, part, _ in bom_rows(load_profile("duo")))
    assert "TCA9548A" not in duo_parts and "MCP23017" not in duo_parts


def test_station_board_doc_follows_station_bits() -> None:
    doc = (DOCS / "station-board.md").read_text()
    for bank, bit, function in STATION_BITS:
        dip = (21 if bank == "A" else 1) + bit
        signal = function.replace("lever ", "").replace(" ", "").upper()
        assert re.search(rf"^\| {dip} \| GP{bank}{bit} \| {signal} ", doc, re.M), function


# -- checks a builder relies on (issue 15) ---------------------------------------------------


def test_duo_ribbon_has_ground_between_sda_and_scl() -> None:
    from pitboard.wiring import GPIO_STATION_PINS

    sda, scl = GPIO_STATION_PINS.index("SDA"), GPIO_STATION_PINS.index("SCL")
    assert abs(sda - scl) == 2 and GPIO_STATION_PINS[(sda + scl) // 2] == "GND"
    h = build_harness(load_profile("duo"))
    labels = h.connectors["X1"].pinlabels
    assert labels.index("SCL") - labels.index("SDA") == 2
    assert labels[labels.index("SDA") + 1] == "GND"
    assert "| 1 | SDA |" in (DOCS / "station-board.md").read_text().replace("  ", " ")


def test_every_hub_port_has_a_polyfuse_in_the_3v3_line() -> None:
    config = load_profile("grid6")
    h = build_harness(config)
    for s in config.stations:
        n = s.index + 1
        jack = f"J{n}"
        into_jack = [w for w in h.wires if w.dst == jack and h.label(jack, w.dst_pin) == "3V3"]
        assert [w.src for w in into_jack] == [f"F{n}"]
    assert any("MF-MSMF014" in part and q == "6" for q, part, _ in bom_rows(config))
    assert "MF-MSMF014" in (DOCS / "grid6-bom.md").read_text()


def test_the_bom_names_the_display_controller_to_buy() -> None:
    rows = bom_rows(load_profile("grid6"))
    assert any("SSD1306 controller" in part for _, part, _ in rows)
    raw = (REPO / "hw_config" / "grid6.toml").read_text()
    import tomllib

    from pitboard.hwconfig import parse_config

    data = tomllib.loads(raw)
    for st in data["stations"]:
        st["display"]["driver"] = "sh1106"
    config = parse_config(data, source=Path("grid6.toml"))
    parts = [part for _, part, _ in bom_rows(config)]
    assert any("1.3-inch, SH1106 controller" in p for p in parts)


def test_station_segments_get_strong_pull_ups() -> None:
    rows = bom_rows(load_profile("grid6"))
    assert any(part.startswith("Resistor 2.2 kOhm") and q == "12" for q, part, _ in rows)


def test_hw_test_is_the_first_step_of_the_wiring_docs() -> None:
    readme = (DOCS / "README.md").read_text()
    assert readme.index("## First: `pitboard hw-test`") < readme.index("## Order of work")
    for step in ("1. GPIO", "2. I2C", "3. Displays", "4. Inputs, live", "5. Bus errors"):
        assert f"| {step} |" in readme
    from pitboard.hwtest import DOCS_SECTION

    assert f"## {DOCS_SECTION.split(', ')[1].strip(chr(34))}" in readme


def test_gpa7_and_gpb7_go_to_gnd_through_a_resistor_on_the_station_board() -> None:
    """Tied low (output-only pins, inputs until configured), but never by a bare wire: a stray
    write driving one high would short it (the review's finding 7)."""
    from pitboard.wiring import station_board_harness

    h = station_board_harness()
    tied = {w.dst_pin for w in h.wires if w.cable == "B9" and w.src == "RAIL" and w.src_pin == 2}
    assert tied == {8, 28}  # GPB7, GPA7
    board = (DOCS / "station-board.md").read_text()
    assert "| 28 | GPA7 | 4.7 kOhm to GND" in board and "| 8 | GPB7 | 4.7 kOhm to GND" in board
    assert "| GPA7 | 28 | GND | 4.7 kOhm to GND" in (DOCS / "grid6.md").read_text()
    assert ("12", "Resistor 4.7 kOhm, 1/4 W") in [
        (q, part) for q, part, notes in bom_rows(load_profile("grid6")) if "GPA7" in notes]


def test_config_txt_ends_each_overlay_scope_and_returns_to_all() -> None:
    lines = config_txt_lines(load_profile("grid6"))
    mux = lines.index("dtoverlay=i2c-mux,pca9548,addr=0x70")
    assert lines[mux + 1] == "dtoverlay="
    assert lines.index("dtparam=i2c_arm=on,i2c_arm_baudrate=400000") < mux
    pi5 = len(lines) - 1 - lines[::-1].index("[pi5]")  # the UART's [pi5]
    assert lines[pi5 + 1] == "dtparam=uart0=on" and lines[pi5 + 2] == "[all]"
    # the extra controllers: under [pi4] and [pi5], each overlay before the mux on it, the
    # last overlay's scope ended, back to [all] before the UART lines
    first = lines.index("[pi4]")
    assert lines[first + 1] == "dtoverlay=i2c6,pins_22_23,baudrate=400000"
    assert lines[first + 2] == "dtoverlay=i2c-mux,pca9548,addr=0x70,i2c6"
    back = lines.index("[all]", first)
    assert lines[back - 1] == "dtoverlay=" and lines[back + 1] == "enable_uart=1"
    assert lines[lines.index("[pi5]"):back].count("dtoverlay=i2c-mux,pca9548,addr=0x70,i2c3") == 1
    assert lines.index("dtparam=spi=off") > pi5 + 2  # back under [all]
    assert "order of these lines matters" in (DOCS / "grid6.md").read_text()
