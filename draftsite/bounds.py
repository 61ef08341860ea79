"""The ranges of the database's integer columns, which bound every whole number a client sends.

PostgreSQL refuses a number past a column's range with an error (a 500 if it got that far), so
every integer field of a form, serializer or socket message is bounded by its column's range:
ids by ``bigint``'s (every model's id is a BigAutoField), counts and positions by ``integer``'s
or a smaller limit of the rules. tests/test_fuzz_api.py sends numbers past both everywhere.
"""

ID_MAX = 2**63 - 1  # bigint: the ids
INTEGER_MAX = 2**31 - 1  # integer: counts, positions, minutes, seconds
