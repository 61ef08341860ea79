"""The events app's pages."""
