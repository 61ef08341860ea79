"""Placeholder: the penalties hook arrives with the models."""
