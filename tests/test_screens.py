"""Station screens: golden images, the docs gallery, legibility, edge cases, terminal output.

Golden files are 1:1 PNGs in tests/golden/screens, one per sample view of
pitboard.table.gallery. After an intended change of the drawing, regenerate them (and the docs
gallery) with::

    PITBOARD_UPDATE_GOLDEN=1 .venv/bin/pytest tests/test_screens.py
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops

from pitboard.hw.oled import to_pages
from pitboard.table import gallery, screens, terminal
from pitboard.table.canvas import _card_sprite
from pitboard.table.gallery import DESCRIPTIONS, gallery_images, readme_text, sample_views
from pitboard.table.screens import (
    BIG,
    COLUMNS,
    HEIGHT,
    MEDIUM,
    SMALL,
    TINY,
    WIDTH,
    column_x,
    render,
)
from pitboard.table.terminal import frames_to_text, image_to_ascii, image_to_blocks, redraw
from pitboard.table.view import (
    ATTRACT,
    FAULT,
    KINDS,
    LOBBY,
    LOCKED,
    PLANNING,
    RESOLUTION,
    RESULTS,
    WAITING,
    CardView,
    CornerView,
    MoveView,
    StationView,
)

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden" / "screens"
DOCS = ROOT / "docs" / "screens"
UPDATE = os.environ.get("PITBOARD_UPDATE_GOLDEN") == "1"
SAMPLES = sample_views()

#: the smallest height of the numbers read from arm's length
MIN_DIGIT_HEIGHT = 16


def _load(path: Path) -> Image.Image:
    with Image.open(path) as img:
        img.load()
        return img.copy()


def _same(a: Image.Image, b: Image.Image) -> bool:
    return a.mode == b.mode and a.size == b.size and a.tobytes() == b.tobytes()


def _diff_summary(want: Image.Image, got: Image.Image) -> str:
    if want.size != got.size or want.mode != got.mode:
        return f"golden {want.size} {want.mode}, rendered {got.size} {got.mode}"
    diff = ImageChops.logical_xor(want.convert("1"), got.convert("1"))
    n = sum(1 for v in diff.convert("L").tobytes() if v)
    return f"{n} pixels differ inside box {diff.getbbox()}"


def _find(haystack: Image.Image, needle: Image.Image) -> list[tuple[int, int]]:
    """Every (x, y) where ``needle`` appears pixel for pixel in ``haystack``."""
    hay = haystack.convert("L")
    want = needle.convert("L").tobytes()
    w, h = needle.size
    return [(x, y) for y in range(hay.height - h + 1) for x in range(hay.width - w + 1)
            if hay.crop((x, y, x + w, y + h)).tobytes() == want]


def _lit(img: Image.Image) -> int:
    return sum(1 for v in img.convert("L").tobytes() if v)


# -- golden images and the docs gallery ----------------------------------------------------------


@pytest.mark.parametrize("name", list(SAMPLES))
def test_screen_matches_golden(name: str) -> None:
    got = render(SAMPLES[name])
    path = GOLDEN / f"{name}.png"
    if UPDATE:
        GOLDEN.mkdir(parents=True, exist_ok=True)
        if not path.exists() or not _same(_load(path), got):
            got.save(path, format="PNG")
    assert path.exists(), (f"screen {name!r}: no golden image {path.relative_to(ROOT)}; "
                           "run with PITBOARD_UPDATE_GOLDEN=1 to create it")
    want = _load(path)
    assert _same(want, got), (
        f"screen {name!r} differs from {path.relative_to(ROOT)}: {_diff_summary(want, got)}. "
        "If the change is intended, regenerate with PITBOARD_UPDATE_GOLDEN=1 and review the "
        "PNGs in docs/screens")


def test_no_stale_golden_files() -> None:
    names = {p.stem for p in GOLDEN.glob("*.png")}
    assert names <= set(SAMPLES), f"golden images without a sample view: {names - set(SAMPLES)}"


def test_docs_gallery_is_up_to_date() -> None:
    """docs/screens holds exactly what a fresh render writes (PNGs compared pixel by pixel,
    since another zlib may compress the same pixels to other bytes; README byte for byte)."""
    if UPDATE:
        gallery.write_gallery(DOCS)
    fresh = gallery_images()
    stale = []
    for filename, img in fresh.items():
        path = DOCS / filename
        if not path.exists() or not _same(_load(path), img):
            stale.append(filename)
    readme = DOCS / gallery.README
    if not readme.exists() or readme.read_bytes() != readme_text(list(SAMPLES)).encode():
        stale.append(gallery.README)
    # phone_*.png: the phone page as Chromium draws it (tests/test_phone_browser.py)
    extra = {p.name for p in DOCS.iterdir() if not p.name.startswith("phone_")} - set(fresh) \
        - {gallery.README} if DOCS.exists() else set()
    assert not stale and not extra, (
        f"docs/screens is out of date (stale: {stale}, unexpected: {sorted(extra)}); regenerate "
        "with `pitboard screens --out docs/screens` or PITBOARD_UPDATE_GOLDEN=1")


def test_gallery_covers_every_kind_and_describes_every_sample() -> None:
    assert {v.kind for v in SAMPLES.values()} == set(KINDS)
    assert set(DESCRIPTIONS) == set(SAMPLES)
    assert all(DESCRIPTIONS.values())


def test_write_gallery_and_main(tmp_path: Path) -> None:
    paths = gallery.write_gallery(tmp_path)
    assert len(paths) == 2 * (len(SAMPLES) + len(gallery.RACE_CONTROL_DESCRIPTIONS)) + 1
    assert all(p.exists() for p in paths)
    big = _load(tmp_path / f"planning_x{gallery.SCALE}.png")
    assert big.size == (WIDTH * gallery.SCALE, HEIGHT * gallery.SCALE)
    # nearest neighbour: shrinking back gives the 1:1 picture
    assert _same(big.resize((WIDTH, HEIGHT), Image.Resampling.NEAREST),
                 _load(tmp_path / "planning.png"))
    readme = (tmp_path / "README.md").read_text(encoding="utf-8")
    assert all(f"]({name}_x{gallery.SCALE}.png)" in readme for name in SAMPLES)
    # rewriting unchanged pixels leaves the files alone
    mtimes = {p: p.stat().st_mtime_ns for p in paths}
    assert gallery.main(["--out", str(tmp_path)]) == 0
    assert {p: p.stat().st_mtime_ns for p in paths} == mtimes


# -- legibility ----------------------------------------------------------------------------------


def test_big_font_is_tall_enough() -> None:
    for text in ("0123456789", "+9", "-3", "5-9", "12-16"):
        box = BIG.render(text).getbbox()
        assert box is not None
        assert box[3] - box[1] >= MIN_DIGIT_HEIGHT, text


@pytest.mark.parametrize(("name", "numbers"), [
    ("planning", lambda v: [v.speed, str(v.target_gear), str(v.engine)]),
    ("planning_spin_odds", lambda v: [v.speed, str(v.engine)]),
    ("resolution", lambda v: [v.speed, f"+{v.move.spaces}"]),
    ("resolution_spin_out", lambda v: [f"+{v.move.spaces}"]),
    ("waiting", lambda v: [v.speed, str(v.target_gear), str(v.engine)]),
    ("waiting_turn_done", lambda v: [f"+{v.move.spaces}"]),
])
def test_key_numbers_are_drawn_big(name: str,
                                   numbers: Callable[[StationView], list[str]]) -> None:
    """The key numbers appear on the screen exactly as the BIG font draws them (≥16 px tall):
    found by searching the rendered screen for the BIG rendering of the number alone."""
    view = SAMPLES[name]
    screen = render(view)
    for number in numbers(view):
        needle = BIG.render(number)
        box = needle.getbbox()
        assert box is not None and box[3] - box[1] >= MIN_DIGIT_HEIGHT
        assert _find(screen, needle), f"{name}: {number!r} is not drawn in the BIG font"


def test_spin_out_and_corner_warnings_are_the_largest_after_the_header() -> None:
    """Issue 23: the spin-out warning is an inverted MEDIUM band over RAM pages 3-4 (rows
    24..39), as large as the card values; a corner's Heat is an inverted MEDIUM chip there.
    When a message must show (why GO is refused), the spin takes page 3 only, in SMALL, and the
    message page 4."""
    for name, text in (("planning_spin_odds", "SPIN 40%"), ("planning_spin_out", "SPIN OUT"),
                       ("planning_corner", "+3H"), ("planning_keep_cool", "+2H")):
        screen = render(SAMPLES[name])
        inverted = ImageChops.invert(screen.convert("L")).convert("1")
        found = _find(inverted, MEDIUM.render(text))
        assert found and all(y >= 24 and y + MEDIUM.height <= 40 for _, y in found), name
    refused = replace(SAMPLES["planning_spin_odds"], message="play 2 cards")
    screen = render(refused)
    inverted = ImageChops.invert(screen.convert("L")).convert("1")
    found = _find(inverted, SMALL.render("SPIN 40%"))
    assert found and all(y >= 24 and y + SMALL.height <= 32 for _, y in found)
    assert _find(screen, SMALL.render("play 2 cards"))
    # the turn screen must keep COOL on: said in words under the corner
    assert _find(render(SAMPLES["planning_keep_cool"]), SMALL.render("keep COOL on"))


@pytest.mark.parametrize("speed", ["13-14", "9-12", "10-13", "7-10", "13", "4-7"])
@pytest.mark.parametrize("gear", [1, 4])
def test_a_speed_range_never_runs_into_the_gear_digit(speed: str, gear: int) -> None:
    """Issue 23: "13-14" beside gear 4 must not read "13-144": at least a digit's width of
    dark columns between the speed's last lit column and the gear digit."""
    view = StationView(PLANNING, 0, speed=speed, gear=3, target_gear=gear, engine=6)
    screen = render(view).crop((0, 8, WIDTH, 24))  # the BIG numbers' rows
    lit = [x for x in range(WIDTH) if any(screen.getpixel((x, y)) for y in range(16))]
    runs: list[list[int]] = []
    for x in lit:
        if runs and x - runs[-1][-1] <= 3:
            runs[-1].append(x)
        else:
            runs.append([x])
    speed_end, gear_start = runs[0][-1], runs[1][0]
    assert gear_start - speed_end - 1 >= BIG.width("8"), (speed, gear, runs)


def test_a_stress_card_is_not_mistaken_for_a_5() -> None:
    """Issue 23: the Stress card is a lit face with its S cut out; the 5 (an upgrade) and the
    Speed cards are drawn in outline: at a glance they differ in most of the face."""
    stress = _card_sprite(CardView("S", "S"))
    five = _card_sprite(CardView("5", "5"))
    differ = ImageChops.logical_xor(stress, five)
    assert _lit(differ) > 0.5 * stress.width * stress.height
    inside = (2, 2, stress.width - 2, stress.height - 2)
    area = (inside[2] - inside[0]) * (inside[3] - inside[1])
    assert _lit(stress.crop(inside)) > 0.6 * area > _lit(five.crop(inside))
    grey = _card_sprite(CardView("S", "S", disabled=True))  # greyed, still a textured face
    grey_five = _card_sprite(CardView("5", "5", disabled=True))
    assert _lit(grey.crop(inside)) > _lit(grey_five.crop(inside))


def test_cards_sit_over_their_buttons() -> None:
    """Card i is drawn inside tray column i, at rest whether selected or not; a selected card
    has a bar over it (rows 41..42), an unselected one nothing above its top row 44."""
    view = SAMPLES["planning"]
    screen = render(view)
    for i, card in enumerate(view.cards):
        x0 = column_x(i)
        column = screen.crop((x0, 40, x0 + 18, HEIGHT))
        box = column.getbbox()
        assert box is not None and box[0] >= 1 and box[2] <= 17, f"card {i} leaves its column"
        top = box[1] + 40
        assert top == (41 if card.selected else 44), f"card {i} top row {top}"
        bar = screen.crop((x0 + 2, 41, x0 + 16, 43))
        assert _lit(bar) == (28 if card.selected else 0), f"card {i} bar"
        assert screen.crop((x0, 43, x0 + 18, 44)).getbbox() is None  # a gap under the bar


def test_a_card_toggle_rewrites_its_columns_of_page_5_only() -> None:
    """Selecting a card changes the tray's top RAM page over that card and nothing else in the
    tray: 14 bytes on the bus, not the card's 3 pages (issue 15.13)."""
    view = SAMPLES["planning"]
    for i, card in enumerate(view.cards):
        if not card.code:
            continue
        cards = list(view.cards)
        cards[i] = replace(card, selected=not card.selected)
        old = to_pages(render(view).convert("1"))
        new = to_pages(render(replace(view, cards=tuple(cards))).convert("1"))
        tray = [(p, c) for p in range(5, 8) for c in range(WIDTH)
                if old[p * WIDTH + c] != new[p * WIDTH + c]]
        x = column_x(i) + 1
        assert tray == [(5, c) for c in range(x + 1, x + 15)], f"card {i}"


def test_fonts_have_consistent_heights() -> None:
    assert (TINY.height, SMALL.height, MEDIUM.height, BIG.height) == (5, 7, 14, 16)
    assert SMALL.normalize("Zoë ✓") == "Zoe ?"
    assert TINY.normalize("go") == "GO"
    assert SMALL.width("") == 0


# -- purity and robustness -----------------------------------------------------------------------


def test_render_is_deterministic_and_returns_a_fresh_image() -> None:
    for view in SAMPLES.values():
        a, b = render(view), render(view)
        assert a.mode == "1" and a.size == (WIDTH, HEIGHT)
        assert a.tobytes() == b.tobytes()
        assert a is not b
    # drawing on a returned image does not leak into the next one (no shared cached frame)
    a = render(SAMPLES["planning"])
    a.paste(1, (0, 0, WIDTH, HEIGHT))
    assert render(SAMPLES["planning"]).tobytes() != a.tobytes()


def test_render_is_the_same_in_a_fresh_process() -> None:
    """Cold caches and another hash seed draw the same pixels."""
    code = ("import hashlib; from pitboard.table.gallery import sample_views; "
            "from pitboard.table.screens import render; "
            "print(hashlib.sha256(b''.join(render(v).tobytes() "
            "for v in sample_views().values())).hexdigest())")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                         text=True, env={**os.environ, "PYTHONHASHSEED": "12345"})
    import hashlib

    here = hashlib.sha256(b"".join(render(v).tobytes() for v in SAMPLES.values())).hexdigest()
    assert out.stdout.strip() == here


def test_unknown_kind_is_a_caller_bug() -> None:
    with pytest.raises(ValueError, match="unknown screen kind"):
        render(StationView(kind="menu", station=0))


LONG = "Bartholomew Maximilian von Longname-Smith"
HEATS = tuple(CardView("H", "H", disabled=True) for _ in range(7))
EDGE_CASES: dict[str, StationView] = {
    "planning empty hand": StationView(PLANNING, 0, title=LONG),
    "planning all Heat": StationView(PLANNING, 0, cards=HEATS, gear=4, target_gear=4, engine=0,
                                     message="CLOGGED: no move, gear 1"),
    "planning speed 20, 3 corners": StationView(
        PLANNING, 0, cards=HEATS[:3], gear=4, target_gear=4, engine=12, speed="20",
        corners=(CornerView(1, 3, 2), CornerView(2, 5, 0), CornerView(3, 4, 3)), heat_owed=5),
    "planning wide range": StationView(PLANNING, 0, gear=3, target_gear=4, engine=99,
                                       speed="12-16", shift_cost=1),
    "planning spin + message": StationView(
        PLANNING, 0, gear=1, target_gear=3, shift_cost=1, speed="20", spin_out=True,
        spin_odds=100, corners=(CornerView(1, 3, 2), CornerView(2, 5, 6), CornerView(3, 4, 3)),
        heat_owed=11, message=LONG),
    "planning odd codes": StationView(PLANNING, 0, cards=(
        CardView("X", "BOOST"), CardView("", ""), CardView("3", "3", selected=True,
                                                           disabled=True)) * 3),
    "locked long title": StationView(LOCKED, 0, title=LONG, message="waiting for 5",
                                     lines=("a", "b", "c", "d"), round=3, lap=1, laps=2),
    "resolution no move": StationView(RESOLUTION, 0, title=LONG),
    "resolution everything": StationView(
        RESOLUTION, 0, title=LONG, speed="20", flips=("S>3", "S>4", "+>2", "x1", "S>-", "+>4"),
        move=MoveView(-12, 123, "racing line", 3, blocked=4),
        heat_paid=("corner 1: 3", "corner 2: 4", "shift: 1"), message=LONG, lines=(LONG,) * 3,
        soft_keys=("ADRENALINE", "BOOST", "COOL12", "?", "é", "", "DONE"), spin_out=True),
    "resolution discard long": StationView(
        RESOLUTION, 0, cards=tuple(CardView(c, c, selected=True) for c in "1234505"),
        move=MoveView(20, 1, "outside", 2), message=LONG, speed="20"),
    "waiting 6 long names": StationView(
        WAITING, 0, message=f"{LONG} to play", order=tuple(f"{i} {LONG}" for i in range(1, 7)),
        move=MoveView(-3, 104, "racing line", 3, blocked=2), lap=3, laps=3, round=99),
    "waiting nothing": StationView(WAITING, 0),
    "results 6 long lines": StationView(RESULTS, 0, order=tuple(f"{i} {LONG}" for i in
                                                                 range(1, 7)), round=99,
                                        soft_keys=("NEXT",) * 7),
    "results 12 lines": StationView(RESULTS, 0, order=tuple(f"{i} Bot" for i in range(12))),
    "results empty": StationView(RESULTS, 0),
    "lobby many lines": StationView(LOBBY, 0, title=LONG, lines=(LONG,) * 9,
                                    soft_keys=("TRACK",) * 9),
    "attract long title": StationView(ATTRACT, 0, title=LONG, order=(LONG,) * 3, round=3),
    "fault bare": StationView(FAULT, 0),
}


@pytest.mark.parametrize("name", list(EDGE_CASES))
def test_edge_cases_render(name: str) -> None:
    img = render(EDGE_CASES[name])
    assert img.mode == "1" and img.size == (WIDTH, HEIGHT)
    assert img.getbbox() is not None  # never a blank screen


def test_every_kind_renders_from_defaults() -> None:
    for kind in KINDS:
        assert render(StationView(kind=kind, station=0)).size == (WIDTH, HEIGHT)


_text = st.text(alphabet=st.characters(codec="utf-8"), max_size=40)
_cards = st.builds(CardView, code=st.sampled_from(["", "0", "1", "2", "3", "4", "5", "H", "S",
                                                    "X"]),
                   label=st.text(max_size=6), selected=st.booleans(), disabled=st.booleans())
_small_int = st.integers(min_value=-999, max_value=999)


@settings(max_examples=150, deadline=None)
@given(view=st.builds(
    StationView,
    kind=st.sampled_from(KINDS), station=st.integers(0, 5), title=_text,
    cards=st.lists(_cards, max_size=9).map(tuple),
    soft_keys=st.lists(_text, max_size=9).map(tuple),
    gear=_small_int, target_gear=_small_int, shift_cost=_small_int, engine=_small_int,
    speed=st.one_of(_text, st.from_regex(r"\A[0-9]{1,3}(-[0-9]{1,3})?\Z")),
    corners=st.lists(st.builds(CornerView, _small_int, _small_int, _small_int),
                     max_size=5).map(tuple),
    heat_owed=_small_int, spin_out=st.booleans(), spin_odds=st.integers(-5, 105),
    message=_text, flips=st.lists(_text, max_size=8).map(tuple),
    move=st.none() | st.builds(MoveView, _small_int, _small_int, _text, _small_int, _small_int),
    heat_paid=st.lists(_text, max_size=4).map(tuple), order=st.lists(_text, max_size=10).map(tuple),
    lap=_small_int, laps=_small_int, round=_small_int, lines=st.lists(_text, max_size=8).map(tuple),
))
def test_any_view_renders(view: StationView) -> None:
    img = render(view)
    assert img.mode == "1" and img.size == (WIDTH, HEIGHT)


def test_soft_keys_are_abbreviated_to_fit_their_column() -> None:
    view = SAMPLES["resolution_react"]
    screen = render(view)
    for i, key in enumerate(view.soft_keys):
        x0 = column_x(i)
        box = screen.crop((x0, 55, x0 + 18, HEIGHT)).getbbox()
        if key:
            assert box is not None and box[2] <= 17, f"key {key!r} leaves its column"
        else:
            assert box is None
    assert screens._key_label("BOOST", 15) == "BOST"
    assert screens._key_label("COOL1", 15) == "COL1"
    assert screens._key_label("DONE", 15) == "DONE"
    assert TINY.width(screens._key_label("ADRENALINE", 15)) <= 15


def test_a_soft_key_takes_its_column_from_the_cards() -> None:
    view = replace(SAMPLES["planning_paged"], cards=SAMPLES["planning"].cards)  # 7 cards
    assert view.soft_keys[COLUMNS - 1] == "PG>"
    with_key = render(view)
    without = render(replace(view, soft_keys=()))
    last = column_x(COLUMNS - 1)
    # cards 0..5 as without the key; over the last button only the key (no 7th card)
    assert with_key.crop((0, 0, last, HEIGHT)).tobytes() == \
        without.crop((0, 0, last, HEIGHT)).tobytes()
    assert with_key.crop((last, 40, WIDTH, 55)).getbbox() is None
    assert without.crop((last, 40, WIDTH, 55)).getbbox() is not None


# -- terminal ------------------------------------------------------------------------------------


def _tiny_image() -> Image.Image:
    """4×3: a lit top-left pixel, a lit column 3, a lit pixel at (1, 2)."""
    img = Image.new("1", (4, 3))
    for x, y in ((0, 0), (3, 0), (3, 1), (3, 2), (1, 2)):
        img.putpixel((x, y), 1)
    return img


def test_half_blocks_exact() -> None:
    assert image_to_blocks(_tiny_image()) == ["▀  █", " ▀ ▀"]


def test_ascii_exact() -> None:
    assert image_to_ascii(_tiny_image()) == "#  #\n   #\n # #"


def test_scaled_down_keeps_thin_lines() -> None:
    # 2x2 blocks: any lit pixel lights the block
    assert image_to_ascii(_tiny_image(), scale=2) == "##\n##"
    assert image_to_blocks(_tiny_image(), scale=2) == ["██"]


def test_frames_side_by_side_with_titles() -> None:
    img = _tiny_image()
    text = frames_to_text([img, img, img], titles=["S1 Alice", "S2"], columns=2)
    assert text.split("\n") == [
        "┌ S1…┐ ┌ S2 ┐",
        "│▀  █│ │▀  █│",
        "│ ▀ ▀│ │ ▀ ▀│",
        "└────┘ └────┘",
        "",
        "┌────┐",
        "│▀  █│",
        "│ ▀ ▀│",
        "└────┘",
    ]


def test_frames_ascii_without_border() -> None:
    text = frames_to_text([_tiny_image()] * 2, titles=["A", "B"], ascii=True, border=False,
                          gap=2)
    assert text.split("\n") == ["A     B", "#  #  #  #", "   #     #", " # #   # #"]


def test_full_screens_fit_three_across() -> None:
    images = [render(SAMPLES[n]) for n in ("planning", "resolution", "waiting")]
    text = frames_to_text(images, titles=["S1", "S2", "S3"], scale=2)
    lines = text.split("\n")
    assert len(lines) == 16 + 2
    assert max(len(line) for line in lines) == 3 * 66 + 2
    full = frames_to_text(images[:1], scale=1)
    assert len(full.split("\n")) == 32 + 2 and len(full.split("\n")[1]) == 128 + 2


def test_redraw_goes_home_and_erases() -> None:
    out = redraw("ab\ncd")
    assert out.startswith(terminal.CURSOR_HOME)
    assert out == "\x1b[Hab\x1b[K\ncd\x1b[K\n\x1b[J"


def test_a_crowded_turn_screen_keeps_its_status_line() -> None:
    """Flips, Heat paid and upgrade lines that overflow the turn screen drop from the end, not
    the status line: it is what the player must act on (a car to move, a prompt)."""
    from rig import find_text
    status = "undo: Ann 21→14 back: GO"
    crowded = StationView(
        RESOLUTION, 0, speed="9", flips=("S>3", "+>2"),
        move=MoveView(9, 30, "outside", 1, blocked=2),
        heat_paid=("corner 1: 3", "shift: 1"), message=status,
        lines=("scrapped 2", "cooled 1", "salvaged 1"),
        cards=tuple(CardView(c, c) for c in "12345"), soft_keys=("", "", "", "", "", "OK"))
    assert find_text(render(crowded), status) is not None
    # with room to spare the order is as before: flips, Heat paid, then the status line
    roomy = replace(crowded, lines=(), cards=(), soft_keys=())
    assert find_text(render(roomy), status) is not None
