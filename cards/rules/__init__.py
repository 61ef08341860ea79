"""The rules core: plain Python, no Django. Dataclasses in, dataclasses out (R1-R47)."""
