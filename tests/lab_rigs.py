"""Rulesets whose outcome the rules decide, for the balance lab's tests (tests/test_lab*.py).

Each is a ruleset mapping (``extends: classic`` with content overrides, docs/house-rules.md);
``write`` puts one into a YAML file for the command line.
"""

from __future__ import annotations

from importlib import resources

import yaml

CHARACTERS = ["lady_lauren", "sir_stephen", "the_captain", "first_mate", "frenchy", "the_kid"]
NAVIGATION = sorted(yaml.safe_load(
    resources.files("lifeboat_rules.data").joinpath("base/navigation.yaml").read_text())["navigation"])

# Treasure cards stay in the game (the characters' doubled groups name them) but score nothing.
WORTHLESS = {
    "cash": {"treasure": {"group": "cash", "points": 0}},
    "jewels": {"treasure": {"group": "jewels", "set": [0, 0, 0, 0]}},
    "painting_3": {"treasure": {"group": "paintings", "points": 0}},
    "painting_2": {"treasure": {"group": "paintings", "points": 0}},
}


def calm_sea(name: str = "calm-sea", survival: dict | None = None) -> dict:
    """Every navigation card is a single seagull and nothing else, and one seagull lands the
    boat (R-GULL-1): the game ends at the first navigation, in round 1. Everyone is size 50,
    so nobody dies in the few fights of one action phase (R-STATUS), and treasure is worth
    nothing. Every character survives; its score is its survival value (unless it hates
    itself, R-SCORE-6) plus the survival value of the character it loves (R-SCORE-4, -5):
    with the default survival 0 for all, every player scores 0 and all share the win."""
    survival = survival or {}
    return {
        "name": name,
        "extends": "classic",
        "overrides": {
            "characters": {c: {"size": 50, "survival": survival.get(c, 0)} for c in CHARACTERS},
            "provisions": WORTHLESS,
            "navigation": {n: {"overboard": [], "thirst": [], "oar": False, "fight": False,
                               "seagull": 1} for n in NAVIGATION},
            "setup": {"seagulls_to_land": 1},
        },
    }


def storm(name: str = "storm") -> dict:
    """Every navigation card throws everyone overboard and makes everyone thirsty, without a
    seagull; everyone is size 1, and there is no water, parasol, medical kit or life
    preserver. A fall knocks a character out (R-OVER-3) and thirst then kills it
    (R-THIRST-3); Frenchy, who falls without damage, is knocked out by thirst and lost at sea
    by the next fall (R-OVER-5). Every game ends with everyone dead (R-END-1) by round 2."""
    return {
        "name": name,
        "extends": "classic",
        "overrides": {
            "characters": {c: {"size": 1} for c in CHARACTERS},
            "provisions": {k: None for k in ("water", "parasol", "medical_kit", "life_preserver")},
            "navigation": {n: {"overboard": "all", "thirst": "all", "oar": False, "fight": False,
                               "seagull": 0} for n in NAVIGATION},
        },
    }


def doldrums(name: str = "doldrums") -> dict:
    """The quick variant deals everyone 1 damage (R-QUICK-1); at size 1 everyone starts
    unconscious, so nobody ever decides anything (R-STATUS). No navigation card brings a
    seagull, a fall or thirst: nothing changes, and the game ends adrift (docs/rules.md, where
    the rules are silent). Everyone survives with survival 0 and worthless treasure: all
    share the win."""
    return {
        "name": name,
        "extends": "classic",
        "variants": ["quick"],
        "overrides": {
            "characters": {c: {"size": 1, "survival": 0} for c in CHARACTERS},
            "provisions": WORTHLESS,
            "navigation": {n: {"overboard": [], "thirst": [], "oar": False, "fight": False,
                               "seagull": 0} for n in NAVIGATION},
        },
    }


def write(folder, ruleset: dict) -> str:
    path = folder / f"{ruleset['name']}.yaml"
    path.write_text(yaml.safe_dump(ruleset, sort_keys=False), encoding="utf-8")
    return str(path)
