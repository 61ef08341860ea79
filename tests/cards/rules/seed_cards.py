"""The seed cards of RULES.md as plain rules-core literals, with their real printed values.

Sources (read when writing this file, never at run time): MTGJSON ISD, ZNR, CHK, EMN, M21;
Cockatrice MKC, MKM, DSK.
"""

from cards.rules import CardData, FaceData

# ISD #182, transforming DFC (R1-R8).
GATSTAF = CardData(
    name="Gatstaf Shepherd // Gatstaf Howler",
    layout="transform",
    faces=(
        FaceData(
            name="Gatstaf Shepherd",
            mana_cost="{1}{G}",
            mana_value=2,
            colors="G",
            card_types=("Creature",),
            subtypes=("Human", "Werewolf"),
            oracle_text="At the beginning of each upkeep, if no spells were cast last turn, "
            "transform Gatstaf Shepherd.",
            power="2",
            toughness="2",
        ),
        FaceData(
            name="Gatstaf Howler",
            mana_cost="",
            mana_value=0,
            colors="G",
            color_indicator="G",
            card_types=("Creature",),
            subtypes=("Werewolf",),
            oracle_text="Intimidate (This creature can't be blocked except by artifact creatures "
            "and/or creatures that share a color with it.)\nAt the beginning of each "
            "upkeep, if a player cast two or more spells last turn, transform "
            "Gatstaf Howler.",
            power="3",
            toughness="3",
        ),
    ),
)

# ISD #51, transforming DFC.
DELVER = CardData(
    name="Delver of Secrets // Insectile Aberration",
    layout="transform",
    faces=(
        FaceData(
            name="Delver of Secrets",
            mana_cost="{U}",
            mana_value=1,
            colors="U",
            card_types=("Creature",),
            subtypes=("Human", "Wizard"),
            oracle_text="At the beginning of your upkeep, look at the top card of your library. "
            "You may reveal that card. If an instant or sorcery card is revealed this "
            "way, transform Delver of Secrets.",
            power="1",
            toughness="1",
        ),
        FaceData(
            name="Insectile Aberration",
            mana_cost="",
            mana_value=0,
            colors="U",
            color_indicator="U",
            card_types=("Creature",),
            subtypes=("Human", "Insect"),
            oracle_text="Flying",
            power="3",
            toughness="2",
        ),
    ),
)

# ZNR #37, modal DFC: instant front, land back (R32-R39).
SEJIRI = CardData(
    name="Sejiri Shelter // Sejiri Glacier",
    layout="modal_dfc",
    faces=(
        FaceData(
            name="Sejiri Shelter",
            mana_cost="{1}{W}",
            mana_value=2,
            colors="W",
            card_types=("Instant",),
            oracle_text="Target creature you control gains protection from the color of your choice until end of turn.",
        ),
        FaceData(
            name="Sejiri Glacier",
            mana_cost="",
            mana_value=0,
            colors="",
            card_types=("Land",),
            oracle_text="Sejiri Glacier enters the battlefield tapped.\n{T}: Add {W}.",
        ),
    ),
)

# ZNR #189, modal DFC: creature front, land back.
KAZANDU = CardData(
    name="Kazandu Mammoth // Kazandu Valley",
    layout="modal_dfc",
    faces=(
        FaceData(
            name="Kazandu Mammoth",
            mana_cost="{1}{G}{G}",
            mana_value=3,
            colors="G",
            card_types=("Creature",),
            subtypes=("Elephant",),
            oracle_text="Landfall — Whenever a land enters the battlefield under your control, "
            "Kazandu Mammoth gets +2/+2 until end of turn.",
            power="3",
            toughness="3",
        ),
        FaceData(
            name="Kazandu Valley",
            mana_cost="",
            mana_value=0,
            colors="",
            card_types=("Land",),
            oracle_text="Kazandu Valley enters the battlefield tapped.\n{T}: Add {G}.",
        ),
    ),
)

# KHM #40, modal DFC with a spell on each face.
ALRUND = CardData(
    name="Alrund, God of the Cosmos // Hakka, Whispering Raven",
    layout="modal_dfc",
    faces=(
        FaceData(
            name="Alrund, God of the Cosmos",
            mana_cost="{3}{U}{U}",
            mana_value=5,
            colors="U",
            supertypes=("Legendary",),
            card_types=("Creature",),
            subtypes=("God",),
            oracle_text="Alrund gets +1/+1 for each card in your hand and each foretold card you "
            "own in exile.\nAt the beginning of your end step, choose a card type, "
            "then reveal the top two cards of your library. Put all cards of the "
            "chosen type revealed this way into your hand and the rest on the bottom "
            "of your library in any order.",
            power="1",
            toughness="1",
        ),
        FaceData(
            name="Hakka, Whispering Raven",
            mana_cost="{1}{U}",
            mana_value=2,
            colors="U",
            supertypes=("Legendary",),
            card_types=("Creature",),
            subtypes=("Bird",),
            oracle_text="Flying\nWhenever Hakka, Whispering Raven deals combat damage to a "
            "player, return it to its owner's hand, then scry 2.",
            power="2",
            toughness="3",
        ),
    ),
)

# CHK #153, flip card (R41-R47).
AKKI = CardData(
    name="Akki Lavarunner // Tok-Tok, Volcano Born",
    layout="flip",
    faces=(
        FaceData(
            name="Akki Lavarunner",
            mana_cost="{3}{R}",
            mana_value=4,
            colors="R",
            card_types=("Creature",),
            subtypes=("Goblin", "Warrior"),
            oracle_text="Haste\nWhenever Akki Lavarunner deals damage to an opponent, flip it.",
            power="1",
            toughness="1",
        ),
        FaceData(
            name="Tok-Tok, Volcano Born",
            mana_cost="",
            mana_value=4,
            colors="R",
            supertypes=("Legendary",),
            card_types=("Creature",),
            subtypes=("Goblin", "Shaman"),
            oracle_text="Protection from red\nIf a red source would deal damage to a player, it "
            "deals that much damage plus 1 to that player instead.",
            power="2",
            toughness="2",
        ),
    ),
)

# MKC, disguise (R18-R25).
EXPERIMENT_TWELVE = CardData(
    name="Experiment Twelve",
    layout="normal",
    faces=(
        FaceData(
            name="Experiment Twelve",
            mana_cost="{3}{G}",
            mana_value=4,
            colors="G",
            card_types=("Creature",),
            subtypes=("Elf", "Lizard", "Warrior"),
            oracle_text="Trample\nWhenever Experiment Twelve or another creature you control is "
            "turned face up, put +1/+1 counters on that creature equal to its power.\n"
            "Disguise {4}{G} (You may cast this card face down for {3} as a 2/2 "
            "creature with ward {2}. Turn it face up any time for its disguise cost.)",
            power="4",
            toughness="4",
            disguise_cost="{4}{G}",
        ),
    ),
)

# MKC, morph.
BROODHATCH = CardData(
    name="Broodhatch Nantuko",
    layout="normal",
    faces=(
        FaceData(
            name="Broodhatch Nantuko",
            mana_cost="{1}{G}",
            mana_value=2,
            colors="G",
            card_types=("Creature",),
            subtypes=("Insect", "Druid"),
            oracle_text="Whenever Broodhatch Nantuko is dealt damage, you may create that many "
            "1/1 green Insect creature tokens.\nMorph {2}{G} (You may cast this card "
            "face down as a 2/2 creature for {3}. Turn it face up any time for its "
            "morph cost.)",
            power="1",
            toughness="1",
            morph_cost="{2}{G}",
        ),
    ),
)

# DSK, manifest dread (R26-R29).
HAUNTWOODS = CardData(
    name="Hauntwoods Shrieker",
    layout="normal",
    faces=(
        FaceData(
            name="Hauntwoods Shrieker",
            mana_cost="{1}{G}{G}",
            mana_value=3,
            colors="G",
            card_types=("Creature",),
            subtypes=("Beast", "Mutant"),
            oracle_text="Whenever Hauntwoods Shrieker attacks, manifest dread. (Look at the top "
            "two cards of your library. Put one onto the battlefield face down as a "
            "2/2 creature and the other into your graveyard. Turn it face up any time "
            "for its mana cost if it's a creature card.)\n{1}{G}: Reveal target "
            "face-down permanent. If it's a creature card, you may turn it face up.",
            power="3",
            toughness="3",
        ),
    ),
)

# DSK instant.
MURDER = CardData(
    name="Murder",
    layout="normal",
    faces=(
        FaceData(
            name="Murder",
            mana_cost="{1}{B}{B}",
            mana_value=3,
            colors="B",
            card_types=("Instant",),
            oracle_text="Destroy target creature.",
        ),
    ),
)

# M21 #159, instant.
SHOCK = CardData(
    name="Shock",
    layout="normal",
    faces=(
        FaceData(
            name="Shock",
            mana_cost="{R}",
            mana_value=1,
            colors="R",
            card_types=("Instant",),
            oracle_text="Shock deals 2 damage to any target.",
        ),
    ),
)

# M21 #128, vanilla creature.
WALKING_CORPSE = CardData(
    name="Walking Corpse",
    layout="normal",
    faces=(
        FaceData(
            name="Walking Corpse",
            mana_cost="{1}{B}",
            mana_value=2,
            colors="B",
            card_types=("Creature",),
            subtypes=("Zombie",),
            power="2",
            toughness="2",
        ),
    ),
)

# M21 #272, basic land.
FOREST = CardData(
    name="Forest",
    layout="normal",
    faces=(
        FaceData(
            name="Forest",
            supertypes=("Basic",),
            card_types=("Land",),
            subtypes=("Forest",),
            oracle_text="({T}: Add {G}.)",
        ),
    ),
)

# MKM, cloak.
CRYPTIC_COAT = CardData(
    name="Cryptic Coat",
    layout="normal",
    faces=(
        FaceData(
            name="Cryptic Coat",
            mana_cost="{2}{U}",
            mana_value=3,
            colors="U",
            card_types=("Artifact",),
            subtypes=("Equipment",),
            oracle_text="When Cryptic Coat enters the battlefield, cloak the top card of your "
            "library, then attach Cryptic Coat to it. (To cloak a card, put it onto "
            "the battlefield face down as a 2/2 creature with ward {2}. Turn it face "
            "up any time for its mana cost if it's a creature card.)\nEquipped "
            "creature gets +1/+0 and can't be blocked.\n{1}{U}: Return Cryptic Coat "
            "to its owner's hand.",
        ),
    ),
)

# DSK, split card (Room).
BOTTOMLESS_POOL = CardData(
    name="Bottomless Pool // Locker Room",
    layout="split",
    faces=(
        FaceData(
            name="Bottomless Pool",
            mana_cost="{U}",
            mana_value=1,
            colors="U",
            card_types=("Enchantment",),
            subtypes=("Room",),
            oracle_text="When you unlock this door, return up to one target creature to its owner's hand.",
        ),
        FaceData(
            name="Locker Room",
            mana_cost="{4}{U}",
            mana_value=5,
            colors="U",
            card_types=("Enchantment",),
            subtypes=("Room",),
            oracle_text="Whenever one or more creatures you control deal combat damage to a player, draw a card.",
        ),
    ),
)

# The melded back face printed half on Bruna's back and half on Gisela's (EMN #15b).
BRISELA_FACE = FaceData(
    name="Brisela, Voice of Nightmares",
    mana_cost="",
    mana_value=11,
    colors="",
    supertypes=("Legendary",),
    card_types=("Creature",),
    subtypes=("Eldrazi", "Angel"),
    oracle_text="Flying, first strike, vigilance, lifelink\nYour opponents can't cast "
    "spells with mana value 3 or less.",
    power="9",
    toughness="10",
)

# EMN #15a, meld card (the melded back face is printed on Bruna's back).
BRUNA = CardData(
    name="Bruna, the Fading Light // Brisela, Voice of Nightmares",
    layout="meld",
    faces=(
        FaceData(
            name="Bruna, the Fading Light",
            mana_cost="{5}{W}{W}",
            mana_value=7,
            colors="W",
            supertypes=("Legendary",),
            card_types=("Creature",),
            subtypes=("Angel", "Horror"),
            oracle_text="When you cast this spell, you may return target Angel or Human creature "
            "card from your graveyard to the battlefield.\nFlying, vigilance\n"
            "(Melds with Gisela, the Broken Blade.)",
            power="5",
            toughness="7",
        ),
        BRISELA_FACE,
    ),
)

# EMN #28, Bruna's meld partner (the card with the meld ability). Not in ALL_CARDS: the
# property tests use it as a meld partner (cards/rules/meld.py), the rules desk as a row.
GISELA = CardData(
    name="Gisela, the Broken Blade // Brisela, Voice of Nightmares",
    layout="meld",
    faces=(
        FaceData(
            name="Gisela, the Broken Blade",
            mana_cost="{2}{W}{W}",
            mana_value=4,
            colors="W",
            supertypes=("Legendary",),
            card_types=("Creature",),
            subtypes=("Angel", "Horror"),
            oracle_text="Flying, first strike, lifelink\nAt the beginning of your end step, if you both own "
            "and control Gisela, the Broken Blade and a creature named Bruna, the Fading Light, exile "
            "them, then meld them into Brisela, Voice of Nightmares.",
            power="4",
            toughness="3",
        ),
        BRISELA_FACE,
    ),
)

ALL_CARDS = (
    GATSTAF,
    DELVER,
    SEJIRI,
    KAZANDU,
    ALRUND,
    AKKI,
    EXPERIMENT_TWELVE,
    BROODHATCH,
    HAUNTWOODS,
    MURDER,
    SHOCK,
    WALKING_CORPSE,
    FOREST,
    CRYPTIC_COAT,
    BOTTOMLESS_POOL,
    BRUNA,
)
