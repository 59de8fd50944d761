"""Baccarat: every bet's exact EV for a shoe."""
