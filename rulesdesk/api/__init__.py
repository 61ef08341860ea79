"""The rules desk's REST API: ``POST /api/rules/simulate``."""
