"""Seed the infraction catalogue from the Infraction Procedure Guide (IPG).

Defaults per rules enforcement level (REL):
- Competitive and Professional: the penalty the IPG gives each infraction (sections 2-4;
  Decklist Problem stays a Game Loss per IPG 3.4, Missed Trigger carries no penalty per IPG 2.1).
- Regular: the Judging at Regular REL document is educational: fix the problem and record a
  Warning (or just the fix) instead of a Game or Match Loss; the serious conduct infractions
  (aggressive behaviour, theft, stalling, cheating) stay a Disqualification at every level.
``upgrade_at``: the n-th Warning for the same infraction is upgraded to a Game Loss at
Competitive/Professional: 2 for Tournament Errors (IPG 3 introduction) and Unsporting
Conduct — Minor (IPG 4.1), 3 for Game Play Errors (IPG 2 introduction) except Failure to
Maintain Game State, which is never upgraded. Summaries are our own words.
"""

from django.db import migrations

GPE, TE, UC = "game_play_error", "tournament_error", "unsporting_conduct"
N, W, GL, ML, DQ = "no_penalty", "warning", "game_loss", "match_loss", "disqualification"

# code, section, category, name, (regular, competitive, professional), upgrade_at, summary
CATALOGUE = [
    ("missed_trigger", "2.1", GPE, "Missed Trigger", (N, N, N), None,
     "A player forgot their own triggered ability; the opponent decides whether it is put on the stack now."),
    ("looking_at_extra_cards", "2.2", GPE, "Looking at Extra Cards", (W, W, W), 3,
     "A player saw cards they were not entitled to see, e.g. flipped a card while shuffling or drawing."),
    ("hidden_card_error", "2.3", GPE, "Hidden Card Error", (W, W, W), 3,
     "An error in a hidden zone that public information cannot fix, such as drawing one card too many."),
    ("mulligan_procedure_error", "2.4", GPE, "Mulligan Procedure Error", (W, W, W), 3,
     "A player got the opening hand or mulligan steps wrong."),
    ("game_rule_violation", "2.5", GPE, "Game Rule Violation", (W, W, W), 3,
     "A game rule was broken in a way no other Game Play Error covers."),
    ("failure_to_maintain_game_state", "2.6", GPE, "Failure to Maintain Game State", (W, W, W), None,
     "The opponent let an error by the other player pass without pointing it out."),
    ("tardiness", "3.1", TE, "Tardiness", (W, GL, GL), 2,
     "The player was not in their seat when the round began or missed a deadline (decklist, deck building)."),
    ("outside_assistance", "3.2", TE, "Outside Assistance", (W, ML, ML), 2,
     "The player sought, gave or used help or notes from outside the game during a match or the draft."),
    ("slow_play", "3.3", TE, "Slow Play", (W, W, W), 2,
     "The player took longer than reasonable for their actions."),
    ("decklist_problem", "3.4", TE, "Decklist Problem", (W, GL, GL), 2,
     "The registered decklist is illegal, differs from what the player meant to play, or had to change."),
    ("deck_problem", "3.5", TE, "Deck Problem", (W, W, W), 2,
     "The deck or sideboard presented does not match the registered decklist."),
    ("limited_procedure_violation", "3.6", TE, "Limited Procedure Violation", (W, W, W), 2,
     "A draft or sealed procedure was broken: revealing single-faced picks (R16), passing the wrong way, "
     "taking too long to pick."),
    ("communication_policy_violation", "3.7", TE, "Communication Policy Violation", (W, W, W), 2,
     "The player broke the rules about what must be said truthfully, e.g. gave wrong free information."),
    ("marked_cards", "3.8", TE, "Marked Cards", (W, W, W), 2,
     "Cards or sleeves can be told apart from the back."),
    ("insufficient_shuffling", "3.9", TE, "Insufficient Shuffling", (W, W, W), 2,
     "The deck was not randomised enough before play."),
    ("unsporting_conduct_minor", "4.1", UC, "Unsporting Conduct — Minor", (W, W, W), 2,
     "Behaviour that is disruptive or unpleasant for others, e.g. foul language or leaving a mess."),
    ("unsporting_conduct_major", "4.2", UC, "Unsporting Conduct — Major", (W, ML, ML), None,
     "Harassing, threatening or otherwise seriously offending someone."),
    ("unsporting_conduct_improperly_determining_winner", "4.3", UC, "Improperly Determining a Winner",
     (W, ML, ML), None, "Deciding a game or match by something other than playing it, such as a die roll."),
    ("unsporting_conduct_bribery_wagering", "4.4", UC, "Bribery and Wagering", (W, ML, ML), None,
     "Offering or accepting an incentive for a result, or betting on the event."),
    ("unsporting_conduct_aggressive_behavior", "4.5", UC, "Aggressive Behavior", (DQ, DQ, DQ), None,
     "Threatening or violent behaviour towards anyone at the event."),
    ("unsporting_conduct_theft", "4.6", UC, "Theft of Tournament Material", (DQ, DQ, DQ), None,
     "Taking material belonging to the event or another player, such as cards from the draft."),
    ("unsporting_conduct_stalling", "4.7", UC, "Stalling", (DQ, DQ, DQ), None,
     "Playing slowly on purpose to use up the time."),
    ("unsporting_conduct_cheating", "4.8", UC, "Cheating", (DQ, DQ, DQ), None,
     "Knowingly breaking a rule or lying to a judge to gain an advantage."),
]


# The database being migrated, which need not be the default one.
def seed(apps, schema_editor):
    infractions = apps.get_model("penalties", "Infraction").objects.using(schema_editor.connection.alias)
    for code, section, category, name, (reg, comp, pro), upgrade_at, summary in CATALOGUE:
        infractions.update_or_create(code=code, defaults={
            "section": section, "category": category, "name": name, "summary": summary,
            "default_regular": reg, "default_competitive": comp, "default_professional": pro,
            "upgrade_at": upgrade_at, "active": True,
        })


def unseed(apps, schema_editor):
    apps.get_model("penalties", "Infraction").objects.using(schema_editor.connection.alias).filter(
        code__in=[row[0] for row in CATALOGUE], penalties__isnull=True).delete()


class Migration(migrations.Migration):
    dependencies = [("penalties", "0001_penalties")]
    operations = [migrations.RunPython(seed, unseed)]
