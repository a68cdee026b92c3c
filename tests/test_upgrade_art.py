"""Upgrade cards on the OLED: every card's face shows its speed and each symbol's icon (with its
number where it fits), mandatory symbols inverted, and its meaning on a detail line."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops

from pitboard.engine.garage.data import MANDATORY, UPGRADES, Upgrade
from pitboard.table import upgrade_art
from pitboard.table.canvas import _card_sprite_cached
from pitboard.table.fonts import SMALL, TINY
from pitboard.table.icons import ART, ICON, MANDATORY_ICON, icon_key
from pitboard.table.screens import render
from pitboard.table.upgrade_art import detail, face, speed_text, symbol_items, wrap
from pitboard.table.view import PLANNING, CardView, CornerView, StationView

CARDS = [u for u in UPGRADES.values() if not u.heat_card]


def found(needle: Image.Image, hay: Image.Image) -> bool:
    """Is ``needle`` (lit and dark pixels alike) somewhere in ``hay``?"""
    w, h = needle.size
    for y in range(hay.height - h + 1):
        for x in range(hay.width - w + 1):
            if not ImageChops.difference(hay.crop((x, y, x + w, y + h)), needle).getbbox():
                return True
    return False


def test_every_icon_is_5x5_and_unlike_every_other() -> None:
    images = {ch: TINY.render(ch) for ch in ART}
    assert {img.size for img in images.values()} == {(5, 5)}
    assert len({img.tobytes() for img in images.values()}) == len(ART)
    # mandatory icons are the plain ones inverted
    for name, ch in ICON.items():
        plain, inverted = images[ch], images[MANDATORY_ICON[name]]
        assert ImageChops.invert(plain).tobytes() == inverted.tobytes()


@pytest.mark.parametrize("u", CARDS, ids=lambda u: u.key)
def test_each_face_shows_the_speed_and_every_symbol(u: Upgrade) -> None:
    img = face(u.code)
    assert img is not None and img.size == upgrade_art.FACE_SIZE
    for name, n in u.symbols:
        key = icon_key(name, n)
        glyph = TINY.render(MANDATORY_ICON[key] if MANDATORY[name] else ICON[key])
        assert found(glyph, img), f"{u.key}: no {name} icon"
    if u.symbols:
        digits = speed_text(u)
        assert any(found(font.render(digits), img) for font in (SMALL, TINY)), u.key


def test_numbers_show_unless_the_card_is_crowded() -> None:
    wings = face("U44")
    assert wings is not None
    for item in symbol_items(UPGRADES["U44"]):  # heat 1, scrap 2, adjust +2: all with numbers
        assert found(TINY.render(item), wings)
    # Tires 0 (four symbols): the numbers 1 give way, the icons stay
    tires = face("U40")
    assert tires is not None
    assert not found(TINY.render(symbol_items(UPGRADES["U40"])[0]), tires)


def test_speed_choices_read_as_choices() -> None:
    assert speed_text(UPGRADES["U7"]) == "1-4"
    assert speed_text(UPGRADES["U31"]) == "1/2"
    brakes = face("U8")  # a plain choice: a fraction of two SMALL digits
    assert brakes is not None
    assert found(SMALL.render("1"), brakes) and found(SMALL.render("3"), brakes)


def test_not_an_upgrade_has_no_face_and_no_detail() -> None:
    for code in ("0", "3", "5", "H", "S", "U99"):
        assert face(code) is None and detail(code) == ()


def test_detail_spells_out_the_card_and_mandatory_is_plain() -> None:
    assert detail("U44") == ("Wings 4: pays 1 Heat, scraps 2, corner limits +2",
                             "Wings 4: Heat 1! scrap 2! limit +2!", "4: Heat 1! scrap 2! limit +2!")
    full = detail("U19")[0]
    assert full == "Body 2: may drop 1 Stress, may cool 1, scraps 2"
    for u in CARDS:
        words = detail(u.code)
        assert words and all(words), u.key
        assert words[0].startswith(u.label)


def test_wrap_breaks_at_spaces() -> None:
    assert wrap("a bb ccc", TINY, TINY.width("A BB")) == ["A BB", "CCC"]


def test_the_tray_draws_an_upgrade_with_its_face() -> None:
    u44 = face("U44")
    assert u44 is not None
    sprite = _card_sprite_cached("upgrade", "U44", False, "U44")
    assert found(u44, sprite)
    view = StationView(PLANNING, 0, cards=(CardView("3", "3"), CardView("U44", "U44")),
                       gear=2, target_gear=2, engine=5, speed="7",
                       detail=detail("U44"))
    img = render(view)
    assert found(sprite, img.crop((0, 40, 128, 64)))
    # the detail line: the whole sentence, wrapped
    assert found(TINY.render("WINGS 4: PAYS 1 HEAT, SCRAPS 2,"), img)


def test_with_a_corner_ahead_the_warning_stays_beside_the_detail() -> None:
    view = StationView(PLANNING, 0, cards=(CardView("U54", "U54"),), gear=2, target_gear=2,
                       engine=5, speed="7", corners=(CornerView(2, 4, 3),), heat_owed=3,
                       detail=detail("U54"))
    img = render(view)
    assert found(ImageChops.invert(TINY.render("CORNER 2 LIMIT 4: +3 HEAT")).crop(
        (0, 0, 40, 5)), img)
    assert found(TINY.render("AIR INTAKE 0:"), img)
