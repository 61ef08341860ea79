"""Every rule the core implements (R1-R8, R18-R47) has at least one test case naming it."""

from tests.cards.rules import test_naming_and_dread, test_rules_table

IMPLEMENTED = {f"R{n}" for n in (*range(1, 9), *range(18, 48))}


def test_every_implemented_rule_has_a_case():
    covered = {case.rule for case in test_rules_table.CASES} | test_naming_and_dread.RULES
    assert IMPLEMENTED - covered == set()
